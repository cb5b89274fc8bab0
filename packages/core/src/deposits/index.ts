export * from "./Deposit"
export * from "./DepositRecord"
export * from "./DepositRepository"
export * from "./DepositNotFound"
