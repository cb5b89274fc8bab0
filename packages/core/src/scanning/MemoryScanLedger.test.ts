import { MemoryTestStorage } from "../testing/MemoryTestStorage.js"
import { scanLedgerContract } from "./ScanLedgerContract.js"

scanLedgerContract("memory", MemoryTestStorage)
