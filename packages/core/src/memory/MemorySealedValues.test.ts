import { MemoryTestStorage } from "../testing/MemoryTestStorage.js"
import { sealedValuesContract } from "../testing/SealedValuesContract.js"

sealedValuesContract("memory", MemoryTestStorage)
