import { Layer } from "effect"
import { PgStorage } from "../PgStorage"
import * as PgStorageFixtures from "./PgStorageFixtures"
import { TestDatabaseLive } from "./TestDatabase"

/** What the contract suites run on in PostgreSQL: every port and the fixtures, over a new test database. */
export const PgTestStorage = PgStorageFixtures.layer.pipe(Layer.provideMerge(PgStorage), Layer.provideMerge(TestDatabaseLive))
