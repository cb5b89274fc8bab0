export * from "./MasterKeyCheck.js"
export * from "./Resealer.js"
export * from "./SealedOwnerContext.js"
export * from "./SealedValues.js"
