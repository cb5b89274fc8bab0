import { depositRepositoryContract } from "../testing/DepositRepositoryContract.js"
import { MemoryTestStorage } from "../testing/MemoryTestStorage.js"

depositRepositoryContract("memory", MemoryTestStorage)
