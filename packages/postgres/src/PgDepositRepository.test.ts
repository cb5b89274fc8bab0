import { depositRepositoryContract } from "@collector/core/testing"
import { PgTestStorage } from "./testing/PgTestStorage"

depositRepositoryContract("PostgreSQL", PgTestStorage)
