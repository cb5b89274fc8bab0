import { depositBookContract } from "../testing/DepositBookContract.js"
import { MemoryTestStorage } from "../testing/MemoryTestStorage.js"

depositBookContract("memory", MemoryTestStorage)
