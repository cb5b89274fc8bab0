import { consoleQueriesContract } from "@collector/core/testing"
import { PgTestStorage } from "./testing/PgTestStorage.js"

consoleQueriesContract("PostgreSQL", PgTestStorage)
