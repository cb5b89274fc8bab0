export * from "./SeedDeposits"
export * from "./SeedEvents"
export * from "./TestDatabase"
export * as PgStorageFixtures from "./PgStorageFixtures"
