import { depositRepositoryContract } from "./DepositRepositoryContract.js"
import { MemoryTestStorage } from "../testing/MemoryTestStorage.js"

depositRepositoryContract("memory", MemoryTestStorage)
