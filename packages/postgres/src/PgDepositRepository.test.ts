import { depositRepositoryContract } from "@collector/core/testing"
import { PgTestStorage } from "./testing/PgTestStorage.js"

depositRepositoryContract("PostgreSQL", PgTestStorage)
