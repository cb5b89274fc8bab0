import { depositRepositoryContract } from "../testing/DepositRepositoryContract"
import { MemoryTestStorage } from "../testing/MemoryTestStorage"

depositRepositoryContract("memory", MemoryTestStorage)
