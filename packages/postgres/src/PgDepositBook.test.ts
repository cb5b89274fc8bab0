import { depositBookContract } from "@collector/core/testing"
import { PgTestStorage } from "./testing/PgTestStorage"

depositBookContract("PostgreSQL", PgTestStorage)
