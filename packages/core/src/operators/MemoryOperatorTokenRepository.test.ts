import { operatorTokenRepositoryContract } from "./OperatorTokenRepositoryContract.js"
import { MemoryStorage } from "../memory/MemoryStorage.js"

operatorTokenRepositoryContract("memory", MemoryStorage)
