import { delegationLedgerContract } from "./DelegationLedgerContract.js"
import { MemoryStorage } from "../memory/MemoryStorage.js"

delegationLedgerContract("memory", MemoryStorage)
