export * from "./NodeClient"
export * from "./NodeConfig"
export * from "./RequestBudget"
export * as TronNodeChain from "./TronNodeChain"
