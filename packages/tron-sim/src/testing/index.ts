export * from "./SimNode"
export * from "./SimProviderChain"
export * from "./SimTestChain"
export * from "./SimWallet"
