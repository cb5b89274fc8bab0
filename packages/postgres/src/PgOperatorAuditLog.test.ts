import { operatorAuditLogContract } from "@collector/core/testing"
import { Layer } from "effect"
import { PgStorage } from "./PgStorage.js"
import { TestDatabaseLive } from "./testing/TestDatabase.js"

operatorAuditLogContract("PostgreSQL", PgStorage.pipe(Layer.provideMerge(TestDatabaseLive)))
