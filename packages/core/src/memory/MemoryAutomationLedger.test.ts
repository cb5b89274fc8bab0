import { automationLedgerContract } from "../testing/AutomationLedgerContract"
import { MemoryTestStorage } from "../testing/MemoryTestStorage"

automationLedgerContract("memory", MemoryTestStorage)
