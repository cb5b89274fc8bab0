import { depositBookContract } from "../testing/DepositBookContract"
import { MemoryTestStorage } from "../testing/MemoryTestStorage"

depositBookContract("memory", MemoryTestStorage)
