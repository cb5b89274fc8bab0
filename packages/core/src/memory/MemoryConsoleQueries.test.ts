import { consoleQueriesContract } from "../testing/ConsoleQueriesContract.js"
import { MemoryTestStorage } from "../testing/MemoryTestStorage.js"

consoleQueriesContract("memory", MemoryTestStorage)
