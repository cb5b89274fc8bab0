import { storageProbeContract } from "./StorageProbeContract.js"
import { MemoryStorage } from "../memory/MemoryStorage.js"

storageProbeContract("memory", MemoryStorage)
