import { componentStatusContract } from "./ComponentStatusContract.js"
import { MemoryStorage } from "../memory/MemoryStorage.js"

componentStatusContract("memory", MemoryStorage)
