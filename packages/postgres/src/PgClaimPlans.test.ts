import { automationLedgerContract, deliveryLedgerContract } from "@collector/core/testing"
import { Layer } from "effect"
import { PgStorage } from "./PgStorage.js"
import * as PgStorageFixtures from "./testing/PgStorageFixtures.js"
import { testDatabaseWith } from "./testing/TestDatabase.js"

// The claims' contracts again, with the joins the planner picks on larger tables (hashes, no
// nested loops): what a claim returns, and in which order, must not hang on the plan.
const hashJoins = Layer.merge(PgStorage, PgStorageFixtures.layer).pipe(
  Layer.provideMerge(testDatabaseWith({ enable_nestloop: "off", enable_mergejoin: "off" }))
)

deliveryLedgerContract("PostgreSQL, hash joins", hashJoins)
automationLedgerContract("PostgreSQL, hash joins", hashJoins)
