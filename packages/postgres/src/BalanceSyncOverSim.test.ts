import { SqlClient } from "@effect/sql"
import { expect, it } from "@effect/vitest"
import { Balances, Chain, Engine, type Kernel, type Tenants, Wallets } from "@collector/core"
import { adapterFor, startSimNode } from "@collector/tron-sim/testing"
import { wallet } from "@collector/tron-sim/testing"
import { Effect, Layer } from "effect"
import { randomBytes } from "node:crypto"
import * as PgBalanceLedger from "./PgBalanceLedger.js"
import * as PgComponentStatus from "./PgComponentStatus.js"
import * as PgWalletRepository from "./PgWalletRepository.js"
import { TestDatabaseLive } from "./testing/TestDatabase.js"

/**
 * Balance sync through real parts: PostgreSQL, the production TRON adapter, and the simulated
 * node over HTTP, driven through its control API as a tenant's integration test would.
 */

const control = (url: string, path: string, body: object) =>
  Effect.promise(async () => {
    const response = await fetch(`${url}/sim/${path}`, { method: "POST", body: JSON.stringify(body) })
    const reply = await response.json() as { ok?: boolean; error?: string }
    if (reply.ok !== true) throw new Error(`/sim/${path}: ${reply.error}`)
    return reply
  })

/** The simulator, its adapter as the Chain, a fresh database, and BalanceSync over them. */
const withSync = (batchSize: number) =>
  <A, E, R>(test: (url: string) => Effect.Effect<A, E, R>) =>
    Effect.gen(function*() {
      const sim = yield* startSimNode()
      const chain = yield* adapterFor(sim.url)
      const parts = Layer.mergeAll(PgBalanceLedger.layer, PgWalletRepository.layer, PgComponentStatus.layer).pipe(Layer.provideMerge(TestDatabaseLive))
      const sync = Balances.BalanceSync.layer({ batchSize }).pipe(Layer.provideMerge(Layer.mergeAll(parts, Layer.succeed(Chain.Chain, chain))))
      return yield* Effect.provide(test(sim.url), sync)
    })

const newScope = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* sql<{ id: string }>`INSERT INTO tenants (name) VALUES (${`t-${randomBytes(4).toString("hex")}`}) RETURNING id`
  return { tenantId: row!.id as Kernel.TenantId, network: "nile" } satisfies Tenants.TenantScope
})

const addWallet = (scope: Tenants.TenantScope, n: number) =>
  Effect.flatMap(Wallets.WalletRepository, (repo) =>
    repo.insert(scope, { customId: `w${n}`, address: wallet(n).address, key: Wallets.localKey({ keyId: "k", blob: randomBytes(60) }) }))

const balancesOf = (id: Kernel.WalletId) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ usdt: string | null; trx: string | null; block: string; synced_at: Date | null }>`
      SELECT balance_usdt::text AS usdt, balance_trx::text AS trx, balance_block::text AS block, balance_synced_at AS synced_at
      FROM wallets WHERE id = ${id}`).pipe(Effect.map(([row]) => row!))

const heartbeat = Effect.map(Effect.flatMap(Engine.ComponentStatus, (s) => s.list("nile")), (list) => list.find((r) => r.component === "balance_sync")!)

it.scopedLive("a new wallet goes from unsynced to its solidified USDT and TRX balances", () =>
  withSync(24)((url) =>
    Effect.gen(function*() {
      const sync = yield* Balances.BalanceSync
      const scope = yield* newScope
      const created = yield* addWallet(scope, 11)
      const repo = yield* Wallets.WalletRepository
      expect(yield* repo.find(scope, created.id)).toMatchObject({ value: { balanceBlock: 0n, balanceUsdt: null, balanceTrx: null } })
      expect((yield* sync.syncBatch("nile")).recorded).toBe(1)
      // Nothing has happened to it on chain: a confirmed zero at the first block.
      expect(yield* repo.find(scope, created.id)).toMatchObject({ value: { balanceBlock: 1_000_000n, balanceUsdt: 0n, balanceTrx: 0n } })

      yield* control(url, "mint", { to: created.address, amount: "25000000" })
      yield* control(url, "transfer", { token: "TRX", to: created.address, amount: 3_000_000 })
      yield* control(url, "mine", { blocks: 1 })
      // Included at 1,000,001 but not solidified (head − 19): the sync still reads zeros.
      yield* sync.syncBatch("nile")
      expect(yield* repo.find(scope, created.id)).toMatchObject({ value: { balanceBlock: 1_000_000n, balanceUsdt: 0n, balanceTrx: 0n } })

      yield* control(url, "mine", { blocks: 19 })
      const batch = yield* sync.syncBatch("nile")
      expect(batch).toMatchObject({ picked: 1, recorded: 1, failed: 0 })
      expect(yield* repo.find(scope, created.id)).toMatchObject({ value: { balanceBlock: 1_000_001n, balanceUsdt: 25_000_000n, balanceTrx: 3_000_000n } })
      expect(yield* heartbeat).toMatchObject({
        status: "ok",
        detail: "0 wallets unsynced, 0 touched by deposits waiting; last batch 1 wallet at block 1000001"
      })
      expect((yield* repo.summary(scope)).unsyncedWalletCount).toBe(0)
    })))

it.scopedLive("a wallet marked stale by a deposit goes before never-synced and rotation wallets", () =>
  withSync(1)((url) =>
    Effect.gen(function*() {
      const sync = yield* Balances.BalanceSync
      const sql = yield* SqlClient.SqlClient
      const scope = yield* newScope
      const rotating = yield* addWallet(scope, 21)
      yield* sync.syncBatch("nile")
      const deposited = yield* addWallet(scope, 22)
      yield* sync.syncBatch("nile")
      const fresh = yield* addWallet(scope, 23)
      yield* control(url, "mint", { to: deposited.address, amount: "7000000" })
      yield* control(url, "mine", { blocks: 20 })
      // What the deposit booking does once the deposit at 1,000,001 is seen.
      yield* sql`UPDATE wallets SET balance_stale_from = 1000001 WHERE id = ${deposited.id}`
      yield* sync.syncBatch("nile")
      expect(yield* balancesOf(deposited.id)).toMatchObject({ usdt: "7000000", block: "1000001" })
      expect(yield* balancesOf(fresh.id)).toMatchObject({ usdt: null, block: "0" })
      const [stale] = yield* sql<{ n: string }>`SELECT count(*)::text AS n FROM wallets WHERE balance_stale_from IS NOT NULL`
      expect(stale!.n).toBe("0")
      yield* sync.syncBatch("nile")
      expect(yield* balancesOf(fresh.id)).toMatchObject({ usdt: "0", block: "1000001" })
      expect(yield* balancesOf(rotating.id)).toMatchObject({ block: "1000000" })
      yield* sync.syncBatch("nile")
      expect(yield* balancesOf(rotating.id)).toMatchObject({ block: "1000001" })
    })))

it.scopedLive("a node outage leaves every balance as it was and reports degraded", () =>
  withSync(24)((url) =>
    Effect.gen(function*() {
      const sync = yield* Balances.BalanceSync
      const scope = yield* newScope
      const synced = yield* addWallet(scope, 31)
      yield* control(url, "mint", { to: synced.address, amount: "5000000" })
      yield* control(url, "mine", { blocks: 20 })
      yield* sync.syncBatch("nile")
      const never = yield* addWallet(scope, 32)
      const before = yield* balancesOf(synced.id)
      expect(before).toMatchObject({ usdt: "5000000", block: "1000001" })

      yield* control(url, "fail", { mode: "error", ms: 60_000 })
      yield* control(url, "mint", { to: synced.address, amount: "1000000" })
      yield* control(url, "mine", { blocks: 20 })
      const batch = yield* sync.syncBatch("nile")
      expect(batch).toMatchObject({ recorded: 0 })
      expect(yield* balancesOf(synced.id)).toEqual(before)
      expect(yield* balancesOf(never.id)).toMatchObject({ usdt: null, trx: null, block: "0", synced_at: null })
      const status = yield* heartbeat
      expect(status.status).toBe("degraded")
      expect(status.detail).toMatch(/^1 wallet unsynced, 0 touched by deposits waiting; last batch 0 wallets; node: ChainUnavailable/)
    })))
