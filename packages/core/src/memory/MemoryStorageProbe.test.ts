import { storageProbeContract } from "../testing/StorageProbeContract.js"
import { MemoryStorage } from "./MemoryStorage.js"

storageProbeContract("memory", MemoryStorage)
