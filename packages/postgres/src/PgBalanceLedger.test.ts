import { SqlClient, type Statement } from "@effect/sql"
import { expect, it } from "@effect/vitest"
import { Balances } from "@collector/core"
import { balanceLedgerContract, StorageFixtures } from "@collector/core/testing"
import { Effect } from "effect"
import { backlogStatement, dueStatement } from "./PgBalanceLedger.js"
import { PgTestStorage } from "./testing/PgTestStorage.js"

balanceLedgerContract("PostgreSQL", PgTestStorage)

it.scoped("due and backlog read the sync indexes, not the table (EXPLAIN over 20,000 wallets)", () =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const scope = yield* Effect.flatMap(StorageFixtures, (fixtures) => fixtures.scope("nile"))
    // Bulk rows straight in SQL: 20,000 repository inserts would only slow the test down.
    yield* sql`
      INSERT INTO wallets (tenant_id, network, address, custom_id, balance_usdt, balance_trx, balance_block, balance_synced_at, balance_stale_from)
      SELECT ${scope.tenantId}, CASE WHEN i % 2 = 0 THEN 'nile' ELSE 'main' END, 'T' || i, 'c' || i,
             CASE WHEN i % 10 = 0 THEN NULL ELSE 0 END, CASE WHEN i % 10 = 0 THEN NULL ELSE 0 END,
             CASE WHEN i % 10 = 0 THEN 0 ELSE 100 END,
             CASE WHEN i % 10 = 0 THEN NULL ELSE now() - i * interval '1 second' END,
             CASE WHEN i % 500 = 2 THEN 90 ELSE NULL END
      FROM generate_series(1, 20000) AS i`
    yield* sql`ANALYZE wallets`
    const plan = (statement: Statement.Fragment) =>
      Effect.map(sql<{ "QUERY PLAN": string }>`EXPLAIN ${statement}`, (rows) => rows.map((r) => r["QUERY PLAN"]).join("\n"))
    const duePlan = yield* plan(dueStatement(sql, "nile", 24, 100n))
    // Few wallets are stale, so the planner may read the partial index as a bitmap.
    expect(duePlan).toMatch(/Index Scan (using|on) wallets_sync_stale/)
    expect(duePlan).toMatch(/Index Scan using wallets_sync_rotation/)
    // The outer sort is over at most twice the limit of rows, never the table.
    expect(duePlan).toMatch(/Sort Key: \(0\), .*wallets\.id\b(?!\)::text)/)
    expect(duePlan).not.toMatch(/Seq Scan/)
    const backlogPlan = yield* plan(backlogStatement(sql, "nile"))
    expect(backlogPlan).toMatch(/wallets_sync_rotation/)
    expect(backlogPlan).toMatch(/wallets_sync_stale/)
    expect(backlogPlan).not.toMatch(/Seq Scan/)
    const ledger = yield* Balances.BalanceLedger
    const due = (yield* ledger.due("nile", 43, 100n)).map((w) => w.address)
    expect(due.slice(0, 3)).toEqual(["T2", "T502", "T1002"])
    expect(due.slice(40)).toEqual(["T10", "T20", "T30"])
    expect(yield* ledger.backlog("nile")).toEqual({ unsynced: 2_000, stale: 40 })
  }).pipe(Effect.provide(PgTestStorage)))
