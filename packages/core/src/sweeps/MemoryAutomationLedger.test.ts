import { automationLedgerContract } from "./AutomationLedgerContract.js"
import { MemoryTestStorage } from "../testing/MemoryTestStorage.js"

automationLedgerContract("memory", MemoryTestStorage)
