import { automationLedgerContract } from "@collector/core/testing"
import { PgTestStorage } from "./testing/PgTestStorage.js"

automationLedgerContract("PostgreSQL", PgTestStorage)
