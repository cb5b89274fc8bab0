import { SqlClient } from "@effect/sql"
import { expect, it } from "@effect/vitest"
import { scanLedgerContract } from "@collector/core/testing"
import { Effect } from "effect"
import { sweepsAmongStatement } from "./PgScanLedger.js"
import { PgTestStorage } from "./testing/PgTestStorage.js"
import { TestDatabaseLive } from "./testing/TestDatabase.js"

scanLedgerContract("PostgreSQL", PgTestStorage)

it.scoped("sweepsAmong reads the partial index of signed transactions, never the whole sweep_tasks table", () =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [text] = sweepsAmongStatement(sql, "nile", []).compile()
    const plan = yield* sql.withTransaction(Effect.gen(function*() {
      // With sequential scans priced out, the planner takes the index whenever the query allows it;
      // planned without the values, as a prepared statement is once it has run a few times.
      yield* sql`SET LOCAL enable_seqscan = off`
      yield* sql`SET LOCAL plan_cache_mode = force_generic_plan`
      yield* sql.unsafe(`PREPARE sweeps_among AS ${text}`)
      const rows = yield* sql.unsafe<{ "QUERY PLAN": string }>(`EXPLAIN EXECUTE sweeps_among('nile', ARRAY['${"a".repeat(64)}'])`)
      yield* sql.unsafe(`DEALLOCATE sweeps_among`)
      return rows.map((r) => r["QUERY PLAN"]).join("\n")
    }))
    expect(plan).toMatch(/sweep_tasks_txid/)
    expect(plan).not.toMatch(/Seq Scan/)
  }).pipe(Effect.provide(TestDatabaseLive)))
