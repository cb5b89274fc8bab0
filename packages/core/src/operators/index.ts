export * from "./OperatorAuditLog.js"
export * from "./OperatorCredential.js"
export * from "./OperatorTokenRepository.js"
export * from "./ConsoleQueries.js"
