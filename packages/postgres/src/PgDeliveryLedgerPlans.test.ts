import { deliveryLedgerContract } from "@collector/core/testing"
import { Layer } from "effect"
import { PgStorage } from "./PgStorage.js"
import * as PgStorageFixtures from "./testing/PgStorageFixtures.js"
import { testDatabaseWith } from "./testing/TestDatabase.js"

// The contract again, with the joins the planner picks on larger tables (hashes, no nested
// loops): what a claim returns, and in which order, must not hang on the plan.
deliveryLedgerContract(
  "PostgreSQL, hash joins",
  Layer.merge(PgStorage, PgStorageFixtures.layer).pipe(Layer.provideMerge(testDatabaseWith({ enable_nestloop: "off", enable_mergejoin: "off" })))
)
