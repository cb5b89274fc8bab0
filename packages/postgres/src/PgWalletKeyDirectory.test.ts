import { walletKeyDirectoryContract } from "@collector/core/testing"
import { Layer } from "effect"
import { PgStorage } from "./PgStorage.js"
import * as PgStorageFixtures from "./testing/PgStorageFixtures.js"
import { TestDatabaseLive } from "./testing/TestDatabase.js"

walletKeyDirectoryContract("PostgreSQL", Layer.merge(PgStorage, PgStorageFixtures.layer).pipe(Layer.provideMerge(TestDatabaseLive)))
