import { storageProbeContract } from "@collector/core/testing"
import { Layer } from "effect"
import { PgStorage } from "./PgStorage"
import { TestDatabaseLive } from "./testing/TestDatabase"

storageProbeContract("PostgreSQL", PgStorage.pipe(Layer.provideMerge(TestDatabaseLive)))
