import { componentStatusContract } from "../testing/ComponentStatusContract.js"
import { MemoryStorage } from "./MemoryStorage.js"

componentStatusContract("memory", MemoryStorage)
