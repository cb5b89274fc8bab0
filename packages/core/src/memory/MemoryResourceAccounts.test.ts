import { resourceAccountsContract } from "../testing/ResourceAccountsContract.js"
import { MemoryStorage } from "./MemoryStorage.js"

resourceAccountsContract("memory", MemoryStorage)
