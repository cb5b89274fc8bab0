import { Layer } from "effect"
import { PgStorage } from "../PgStorage.js"
import * as PgStorageFixtures from "./PgStorageFixtures.js"
import { TestDatabaseLive } from "./TestDatabase.js"

/** What the contract suites run on in PostgreSQL: every port and the fixtures, over a new test database. */
export const PgTestStorage = PgStorageFixtures.layer.pipe(Layer.provideMerge(PgStorage), Layer.provideMerge(TestDatabaseLive))
