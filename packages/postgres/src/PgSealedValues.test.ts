import { sealedValuesContract } from "@collector/core/testing"
import { PgTestStorage } from "./testing/PgTestStorage.js"

sealedValuesContract("PostgreSQL", PgTestStorage)
