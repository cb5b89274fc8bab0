import { tenantRepositoryContract } from "@collector/core/testing"
import { Layer } from "effect"
import { PgStorage } from "./PgStorage"
import { TestDatabaseLive } from "./testing/TestDatabase"

tenantRepositoryContract("PostgreSQL", PgStorage.pipe(Layer.provideMerge(TestDatabaseLive)))
