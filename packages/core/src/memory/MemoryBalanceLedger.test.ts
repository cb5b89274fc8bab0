import { balanceLedgerContract } from "../testing/BalanceLedgerContract"
import { MemoryTestStorage } from "../testing/MemoryTestStorage"

balanceLedgerContract("memory", MemoryTestStorage)
