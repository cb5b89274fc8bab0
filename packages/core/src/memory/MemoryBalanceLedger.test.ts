import { balanceLedgerContract } from "../testing/BalanceLedgerContract.js"
import { MemoryTestStorage } from "../testing/MemoryTestStorage.js"

balanceLedgerContract("memory", MemoryTestStorage)
