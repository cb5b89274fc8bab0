import { balanceLedgerContract } from "./BalanceLedgerContract.js"
import { MemoryTestStorage } from "../testing/MemoryTestStorage.js"

balanceLedgerContract("memory", MemoryTestStorage)
