import { feeLedgerContract } from "@collector/core/testing"
import { PgTestStorage } from "./testing/PgTestStorage.js"

feeLedgerContract("PostgreSQL", PgTestStorage)
