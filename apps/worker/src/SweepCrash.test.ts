import type { Wallets } from "@collector/core"
import { Pkcs11Token, Pkcs11WalletKeys } from "@collector/pkcs11"
import { createTestToken, skipReason, softHsmInstalled, softHsmModule } from "@collector/pkcs11/testing"
import { PgSweepRepository } from "@collector/postgres"
import { SqlClient } from "@effect/sql"
import { describe, expect, it as vitestIt, layer } from "@effect/vitest"
import { Effect, Fiber, Layer, type Scope } from "effect"
import { randomUUID } from "node:crypto"
import { eventually } from "../../../test-support/Eventually.js"
import { startTs } from "../../../test-support/Processes.js"
import { crashWorkerEnv, headOf, killed, killedAtEach, mining, sweepCheckpoints } from "./testing/CrashRuns.js"
import { DatabaseUrl, ProcessWorld } from "./testing/ProcessWorld.js"
import { createTask, seedScope, sentFrom, Sim, type SweepScope, type SweepWallet } from "./testing/SweepHarness.js"

const usdt = (whole: bigint) => whole * 1_000_000n

/** The key store the workers sign with, and how the test makes its wallets' keys. */
interface Store {
  readonly name: string
  readonly env: Record<string, string>
  /** Keys made in the store (a PKCS#11 token); absent: simulator keys sealed locally. */
  readonly keys?: Effect.Effect<Wallets.WalletKeys["Type"], never, Scope.Scope>
}

const local: Store = { name: "local", env: {} }

/** A throw-away SoftHSM2 token; the workers find it through SOFTHSM2_CONF, inherited from this process. */
const pkcs11Store = (): Store => {
  const token = createTestToken(undefined, 2)
  return {
    name: "pkcs11",
    env: { KEY_STORE: "pkcs11", PKCS11_MODULE: softHsmModule, PKCS11_TOKEN_LABEL: token.label, PKCS11_PIN: token.pin, PKCS11_SESSIONS: "2" },
    keys: Effect.map(Effect.orDie(Pkcs11Token.open(token.settings)), (opened) =>
      // Every run's database starts its wallet IDs at 1: a prefix of its own keeps the labels apart in the one token.
      Pkcs11WalletKeys.make(opened, `crash-${randomUUID().slice(0, 8)}-`))
  }
}

const workerEnv = (store: Store, databaseUrl: string, nodeUrl: string, startBlock: bigint, crashAt?: string) => ({
  ...crashWorkerEnv(databaseUrl, nodeUrl, startBlock, crashAt),
  ...store.env,
  ENERGY_PROVIDER_NILE: "sim"
})

interface TaskRow {
  readonly status: string
  readonly txid: string
  readonly amount: string
  readonly rental_order_id: string | null
}

const taskRow = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<TaskRow>`SELECT status, txid, amount::text, rental_order_id FROM sweep_tasks WHERE id = ${id}`).pipe(
    Effect.orDie,
    Effect.map((rows) => rows[0]!)
  )

/** An activated wallet with USDT and no energy: its sweep goes through a rental, so through every checkpoint. */
const rentalWallet = (w: SweepWallet) =>
  Effect.gen(function*() {
    const sim = yield* Sim
    yield* sim.chain.activate(w.address, 1n)
    yield* sim.chain.mintUsdt(w.address, usdt(40n))
  })

/** What must hold after any number of crashes: one order, one transaction, one event, the total booked once. */
const provenOnce = (scope: SweepScope, w: SweepWallet, id: string) =>
  Effect.gen(function*() {
    const sim = yield* Sim
    const sql = yield* SqlClient.SqlClient
    const task = yield* taskRow(id)
    expect(task.status).toBe("succeeded")
    expect(yield* sentFrom(w.address)).toEqual([task.txid])
    const orders = (yield* sim.provider.orders).filter((o) => o.order.receiver === w.address)
    expect(orders.map((o) => o.order.orderNo)).toEqual([task.rental_order_id])
    const events = yield* sql<{ id: string; event_type: string }>`SELECT id::text, event_type FROM events WHERE tenant_id = ${scope.tenantId}`
    expect(events.filter((e) => e.id === id)).toEqual([{ id, event_type: "sweep.succeeded" }])
    const [wallet] = yield* sql<{ collected: string }>`SELECT collected_usdt::text AS collected FROM wallets WHERE id = ${w.walletId}`
    expect(wallet!.collected).toBe(task.amount)
  }).pipe(Effect.orDie)

// Every checkpoint of a rental sweep.
const crashPoints = sweepCheckpoints

const world = Layer.provideMerge(PgSweepRepository.layer, ProcessWorld)

/** The keys of `count` wallets in the store: sealed simulator keys, or made in the token. */
const seeded = (store: Store, count: number) =>
  store.keys === undefined ? seedScope(count) : Effect.flatMap(store.keys, (keys) => seedScope(count, {}, "nile", keys))

const crashSuite = (store: Store) => layer(world, { excludeTestServices: true, timeout: 600_000 })(`sweeper processes (${store.name} key store)`, (it) => {
  it.effect("a worker killed at every state transition and restarted: one rental order, one transaction, one event", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const databaseUrl = yield* DatabaseUrl
      const scope = yield* seeded(store, 1)
      const w = scope.wallets[0]!
      yield* rentalWallet(w)
      yield* sim.chain.mine(25)
      const miner = yield* Effect.fork(mining)
      const task = yield* createTask(scope, w)
      const start = yield* headOf
      const ends = yield* killedAtEach(crashPoints, (point) => workerEnv(store, databaseUrl, sim.url, start, point), taskRow(task.id))
      expect(ends).toEqual(crashPoints.map((point) => ({ point, signal: "SIGKILL" })))
      const last = startTs("apps/worker/src/main.ts", workerEnv(store, databaseUrl, sim.url, start))
      // Past the last checkpoint the task is already terminal: give the worker a moment to do anything wrong.
      yield* eventually(taskRow(task.id), (t) => t.status === "succeeded")
      yield* Effect.sleep("2 seconds")
      yield* killed(last, "SIGTERM")
      yield* Fiber.interrupt(miner)
      yield* provenOnce(scope, w, task.id)
    }).pipe(Effect.scoped), 600_000)

  it.effect("two workers at once share the tasks: each wallet sweeps once, one order and one event each", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const databaseUrl = yield* DatabaseUrl
      const scope = yield* seeded(store, 6)
      for (const w of scope.wallets) yield* rentalWallet(w)
      yield* sim.chain.mine(25)
      const miner = yield* Effect.fork(mining)
      const start = yield* headOf
      const a = startTs("apps/worker/src/main.ts", workerEnv(store, databaseUrl, sim.url, start))
      const b = startTs("apps/worker/src/main.ts", workerEnv(store, databaseUrl, sim.url, start))
      const tasks = yield* Effect.forEach(scope.wallets, (w) => createTask(scope, w))
      // Done when every task has succeeded; a slow machine only has to keep making progress.
      yield* eventually(Effect.forEach(tasks, (task) => taskRow(task.id)), (rows) => rows.every((t) => t.status === "succeeded"))
      yield* Effect.all([killed(a, "SIGTERM"), killed(b, "SIGTERM")])
      yield* Fiber.interrupt(miner)
      for (const [i, task] of tasks.entries()) yield* provenOnce(scope, scope.wallets[i]!, task.id)
    }).pipe(Effect.scoped), 600_000)
})

crashSuite(local)
// The same crashes with every wallet key in a PKCS#11 token: no sweep is signed twice or lost.
if (softHsmInstalled) crashSuite(pkcs11Store())
else describe("sweeper processes (pkcs11 key store)", () => vitestIt.skip(skipReason, () => expect(softHsmInstalled).toBe(false)))
