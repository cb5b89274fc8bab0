import { resourceAccountsContract } from "@collector/core/testing"
import { Layer } from "effect"
import { PgStorage } from "./PgStorage.js"
import { TestDatabaseLive } from "./testing/TestDatabase.js"

resourceAccountsContract("PostgreSQL", PgStorage.pipe(Layer.provideMerge(TestDatabaseLive)))
