import { automationLedgerContract } from "@collector/core/testing"
import { PgTestStorage } from "./testing/PgTestStorage"

automationLedgerContract("PostgreSQL", PgTestStorage)
