export * from "./Deposit"
export * from "./DepositRecord"
export * from "./DepositRepository"
