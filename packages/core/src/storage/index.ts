export * from "./StoragePorts.js"
export * from "./StorageProbe.js"
export * as MemoryStorageProbe from "./MemoryStorageProbe.js"
