import { MemoryTestStorage } from "../testing/MemoryTestStorage"
import { scanLedgerContract } from "../testing/ScanLedgerContract"

scanLedgerContract("memory", MemoryTestStorage)
