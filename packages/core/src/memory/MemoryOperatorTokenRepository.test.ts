import { operatorTokenRepositoryContract } from "../testing/OperatorTokenRepositoryContract.js"
import { MemoryStorage } from "./MemoryStorage.js"

operatorTokenRepositoryContract("memory", MemoryStorage)
