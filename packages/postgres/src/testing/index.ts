export * from "./FreePort"
export * from "./SeedDeposits"
export * from "./SeedEvents"
export * from "./TestDatabase"
