import { componentStatusContract } from "../testing/ComponentStatusContract"
import { MemoryStorage } from "./MemoryStorage"

componentStatusContract("memory", MemoryStorage)
