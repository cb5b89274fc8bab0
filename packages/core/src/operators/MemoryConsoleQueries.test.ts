import { consoleQueriesContract } from "./ConsoleQueriesContract.js"
import { MemoryTestStorage } from "../testing/MemoryTestStorage.js"

consoleQueriesContract("memory", MemoryTestStorage)
