export * from "./ComponentStatusContract"
export * as MemoryStorageFixtures from "./MemoryStorageFixtures"
export * from "./StorageFixtures"
export * from "./StorageProbeContract"
