import { notificationRepositoryContract } from "@collector/core/testing"
import { Layer } from "effect"
import { PgStorage } from "./PgStorage"
import * as PgStorageFixtures from "./testing/PgStorageFixtures"
import { TestDatabaseLive } from "./testing/TestDatabase"

notificationRepositoryContract("PostgreSQL", Layer.merge(PgStorage, PgStorageFixtures.layer).pipe(Layer.provideMerge(TestDatabaseLive)))
