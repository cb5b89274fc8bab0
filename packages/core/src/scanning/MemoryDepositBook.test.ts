import { depositBookContract } from "./DepositBookContract.js"
import { MemoryTestStorage } from "../testing/MemoryTestStorage.js"

depositBookContract("memory", MemoryTestStorage)
