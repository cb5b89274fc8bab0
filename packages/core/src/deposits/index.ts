export * from "./Deposit.js"
export * from "./DepositRecord.js"
export * from "./DepositRepository.js"
export * from "./DepositNotFound.js"
