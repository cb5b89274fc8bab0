import { delegationLedgerContract } from "../testing/DelegationLedgerContract.js"
import { MemoryStorage } from "./MemoryStorage.js"

delegationLedgerContract("memory", MemoryStorage)
