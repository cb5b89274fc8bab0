import { MemoryTestStorage } from "../testing/MemoryTestStorage.js"
import { sealedValuesContract } from "./SealedValuesContract.js"

sealedValuesContract("memory", MemoryTestStorage)
