import { MemoryTestStorage } from "../testing/MemoryTestStorage.js"
import { scanLedgerContract } from "../testing/ScanLedgerContract.js"

scanLedgerContract("memory", MemoryTestStorage)
