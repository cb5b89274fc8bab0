import { automationLedgerContract } from "../testing/AutomationLedgerContract.js"
import { MemoryTestStorage } from "../testing/MemoryTestStorage.js"

automationLedgerContract("memory", MemoryTestStorage)
