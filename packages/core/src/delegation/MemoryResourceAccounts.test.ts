import { resourceAccountsContract } from "./ResourceAccountsContract.js"
import { MemoryStorage } from "../memory/MemoryStorage.js"

resourceAccountsContract("memory", MemoryStorage)
