import { SqlClient, type Statement } from "@effect/sql"
import { expect, it } from "@effect/vitest"
import { BalanceLedger, type TenantId, type TenantScope, type WalletId, WalletRepository } from "@collector/core"
import { Effect, Layer, TestClock } from "effect"
import { randomBytes } from "node:crypto"
import * as PgBalanceLedger from "./PgBalanceLedger"
import { backlogStatement, dueStatement } from "./PgBalanceLedger"
import * as PgWalletRepository from "./PgWalletRepository"
import { TestDatabaseLive } from "./testing/TestDatabase"

// Each test gets its own database: `due` reads a whole network, so tests must not share wallets.
const withDatabase = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.provide(effect, Layer.mergeAll(PgBalanceLedger.layer, PgWalletRepository.layer).pipe(Layer.provideMerge(TestDatabaseLive)))

const newScope = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* sql<{ id: string }>`INSERT INTO tenants (name) VALUES (${`t-${randomBytes(4).toString("hex")}`}) RETURNING id`
  return { tenantId: row!.id as TenantId, network: "nile" } satisfies TenantScope
})

const addWallet = (scope: TenantScope, customId: string) =>
  Effect.flatMap(WalletRepository, (repo) =>
    repo.insert(scope, { customId, address: `T${randomBytes(16).toString("hex")}`, sealedKey: { keyId: "k", blob: randomBytes(60) } }))

/** What the deposit booking does to a wallet (kept at the later block when marked twice). */
const markStale = (id: WalletId, block: bigint) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`UPDATE wallets SET balance_stale_from = GREATEST(coalesce(balance_stale_from, 0), ${block}) WHERE id = ${id}`)

const row = (id: WalletId) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ usdt: string | null; trx: string | null; block: string; synced_at: Date | null; stale_from: string | null }>`
      SELECT balance_usdt::text AS usdt, balance_trx::text AS trx, balance_block::text AS block, balance_synced_at AS synced_at,
             balance_stale_from::text AS stale_from
      FROM wallets WHERE id = ${id}`).pipe(Effect.map(([r]) => r!))

const reading = (walletId: WalletId, atBlock: bigint, usdt = 1n, trx = 2n) => ({ walletId, usdt, trx, atBlock })

it.scoped("due: stale wallets at or below the solidified block, then never-synced, then the longest-unsynced", () =>
  withDatabase(Effect.gen(function*() {
    const ledger = yield* BalanceLedger
    const scope = yield* newScope
    const [a, b, c, d, e, f] = yield* Effect.forEach(["a", "b", "c", "d", "e", "f"], (name) => addWallet(scope, name))
    // a synced first, then b: a is the oldest of the rotation.
    yield* ledger.record("nile", [reading(a!.id, 100n)])
    yield* TestClock.adjust("1 minute")
    yield* ledger.record("nile", [reading(b!.id, 100n)])
    yield* TestClock.adjust("1 minute")
    yield* ledger.record("nile", [reading(e!.id, 100n)])
    yield* markStale(e!.id, 150n)
    yield* markStale(b!.id, 120n)
    // Above the solidified block (200): not first, but still in its rotation place (never synced).
    yield* markStale(d!.id, 250n)
    // Another network is never due here.
    yield* addWallet({ ...scope, network: "main" }, "other")
    const due = yield* ledger.due("nile", 10, 200n)
    expect(due.map((w) => w.id)).toEqual([b!.id, e!.id, c!.id, d!.id, f!.id, a!.id])
    expect(due[0]!.address).toBe(b!.address)
    expect((yield* ledger.due("nile", 3, 200n)).map((w) => w.id)).toEqual([b!.id, e!.id, c!.id])
    // With the solidified block below every mark, only the rotation counts.
    expect((yield* ledger.due("nile", 10, 110n)).map((w) => w.id)).toEqual([c!.id, d!.id, f!.id, a!.id, b!.id, e!.id])
    expect(yield* ledger.backlog("nile")).toEqual({ unsynced: 3, stale: 3 })
  })))

it.scoped("record writes balances and never moves a wallet to an older block", () =>
  withDatabase(Effect.gen(function*() {
    const ledger = yield* BalanceLedger
    const scope = yield* newScope
    const w = yield* addWallet(scope, "w")
    expect(yield* row(w.id)).toEqual({ usdt: null, trx: null, block: "0", synced_at: null, stale_from: null })
    yield* TestClock.adjust("1 hour")
    expect(yield* ledger.record("nile", [reading(w.id, 2_000n, 25_000_000n, 0n)])).toBe(1)
    // A confirmed zero is "0", not null.
    expect(yield* row(w.id)).toEqual({ usdt: "25000000", trx: "0", block: "2000", synced_at: new Date(3_600_000), stale_from: null })
    yield* TestClock.adjust("1 hour")
    expect(yield* ledger.record("nile", [reading(w.id, 1_999n, 7n, 7n)])).toBe(0)
    expect(yield* row(w.id)).toMatchObject({ usdt: "25000000", block: "2000", synced_at: new Date(3_600_000) })
    // The same block again is a fresh reading of the same state: it renews the sync time.
    expect(yield* ledger.record("nile", [reading(w.id, 2_000n, 25_000_000n, 0n)])).toBe(1)
    expect((yield* row(w.id)).synced_at).toEqual(new Date(7_200_000))
    // Several readings of one wallet in one batch: the newest wins, whatever the order.
    expect(yield* ledger.record("nile", [reading(w.id, 2_010n, 9n, 9n), reading(w.id, 2_005n, 5n, 5n)])).toBe(1)
    expect(yield* row(w.id)).toMatchObject({ usdt: "9", trx: "9", block: "2010" })
    // A reading filed under the wrong network writes nothing.
    expect(yield* ledger.record("main", [reading(w.id, 3_000n)])).toBe(0)
    expect((yield* row(w.id)).block).toBe("2010")
    // Balances beyond 2^64 survive (numeric(78,0)).
    const big = 2n ** 255n
    yield* ledger.record("nile", [reading(w.id, 2_011n, big, big)])
    expect(yield* row(w.id)).toMatchObject({ usdt: big.toString(), trx: big.toString() })
  })))

it.scoped("a stale mark survives a reading from below its block and is cleared by one at or above it", () =>
  withDatabase(Effect.gen(function*() {
    const ledger = yield* BalanceLedger
    const scope = yield* newScope
    const [w, x] = yield* Effect.forEach(["w", "x"], (name) => addWallet(scope, name))
    yield* markStale(w!.id, 500n)
    yield* markStale(x!.id, 500n)
    yield* ledger.record("nile", [reading(w!.id, 499n), reading(x!.id, 500n)])
    expect(yield* row(w!.id)).toMatchObject({ block: "499", stale_from: "500" })
    expect(yield* row(x!.id)).toMatchObject({ block: "500", stale_from: null })
    expect(yield* ledger.backlog("nile")).toEqual({ unsynced: 0, stale: 1 })
    yield* ledger.record("nile", [reading(w!.id, 519n)])
    expect(yield* row(w!.id)).toMatchObject({ block: "519", stale_from: null })
  })))

it.scoped("due and backlog read the sync indexes, not the table (EXPLAIN over 20,000 wallets)", () =>
  withDatabase(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const scope = yield* newScope
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
    const ledger = yield* BalanceLedger
    const due = (yield* ledger.due("nile", 43, 100n)).map((w) => w.address)
    expect(due.slice(0, 3)).toEqual(["T2", "T502", "T1002"])
    expect(due.slice(40)).toEqual(["T10", "T20", "T30"])
    expect(yield* ledger.backlog("nile")).toEqual({ unsynced: 2_000, stale: 40 })
  })))

