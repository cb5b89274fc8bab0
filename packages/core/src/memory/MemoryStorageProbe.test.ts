import { storageProbeContract } from "../testing/StorageProbeContract"
import { MemoryStorage } from "./MemoryStorage"

storageProbeContract("memory", MemoryStorage)
