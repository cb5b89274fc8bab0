import { depositBookContract } from "@collector/core/testing"
import { PgTestStorage } from "./testing/PgTestStorage.js"

depositBookContract("PostgreSQL", PgTestStorage)
