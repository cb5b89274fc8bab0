import { SqlClient, type Statement } from "@effect/sql"
import { expect, it } from "@effect/vitest"
import {
  roundDeadline,
  type SweepDraft,
  SweepRepository,
  sweepOutcome,
  type EventId,
  type SweepTask,
  type TenantId,
  type TenantScope,
  type TerminalSweepStatus,
  type WalletId,
  type WalletQuery,
  WalletRepository
} from "@collector/core"
import { Cause, Deferred, Effect, Exit, Fiber, Layer, Option } from "effect"
import { randomBytes } from "node:crypto"
import { insertEvents } from "./EventOutbox"
import * as PgSweepRepository from "./PgSweepRepository"
import * as PgWalletRepository from "./PgWalletRepository"
import { listStatement } from "./PgWalletRepository"
import { TestDatabaseLive } from "./testing/TestDatabase"

// Each test gets its own database: a claim reads a whole network, so tests must not share tasks.
const withDatabase = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.provide(effect, Layer.mergeAll(PgSweepRepository.layer, PgWalletRepository.layer).pipe(Layer.provideMerge(TestDatabaseLive)))

const newScope = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* sql<{ id: string }>`INSERT INTO tenants (name) VALUES (${`t-${randomBytes(4).toString("hex")}`}) RETURNING id`
  return { tenantId: row!.id as TenantId, network: "nile" } satisfies TenantScope
})

const addWallet = (scope: TenantScope, customId: string) =>
  Effect.flatMap(WalletRepository, (repo) =>
    repo.insert(scope, { customId, address: `T${randomBytes(16).toString("hex")}`, sealedKey: { keyId: "k1", blob: randomBytes(60) } }))

const at = (seconds: number) => new Date(Date.UTC(2026, 2, 1) + seconds * 1000)

const draftFor = (wallet: { readonly id: WalletId; readonly address: string }, over: Partial<SweepDraft> = {}): SweepDraft => ({
  walletId: wallet.id,
  address: wallet.address,
  mode: "all",
  requestedAmount: null,
  minimumAmount: null,
  destination: "TCollectionAddress",
  origin: "manual",
  maxWalletTrxFee: 15_000_000n,
  prepareBy: at(3600),
  ...over
} as SweepDraft)

const insertOne = (scope: TenantScope, wallet: { readonly id: WalletId; readonly address: string }, when = at(0)) =>
  Effect.flatMap(SweepRepository, (repo) => repo.insert(scope, [draftFor(wallet)], when)).pipe(Effect.map(([task]) => task!))

/** Claims every due task of the network for `worker` (long lease) and returns the one asked for. */
const claimed = (task: SweepTask, worker: string, now = at(10)) =>
  Effect.flatMap(SweepRepository, (repo) => repo.claim(task.network, worker, now, at(100_000), 100)).pipe(
    Effect.map((tasks) => tasks.find((t) => t.id === task.id)!)
  )

const stored = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ status: string; version: number; claimed_by: string | null; txid: string; amount: string }>`
      SELECT status, version, claimed_by, txid, amount::text AS amount FROM sweep_tasks WHERE id = ${id}`).pipe(Effect.map(([r]) => r!))

const walletRow = (id: WalletId) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ collected: string; last: Date | null }>`
      SELECT collected_usdt::text AS collected, last_collected_at AS last FROM wallets WHERE id = ${id}`).pipe(Effect.map(([r]) => r!))

const eventRow = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{
      id: string
      tenant_id: string
      network: string
      event_type: string
      deposit_id: string | null
      revision: number | null
      payload: string
      status: string
      next_attempt: Date | null
      deadline_at: Date
      created_at: Date
    }>`
      SELECT id::text, tenant_id::text, network, event_type, deposit_id::text, revision, payload, status, next_attempt, deadline_at, created_at
      FROM events WHERE id = ${id}`)

/** A terminal outcome of a task as the sweeper would write it. */
const outcomeOf = (task: SweepTask, status: TerminalSweepStatus, over: Partial<SweepTask> = {}) => {
  const last = { ...task, ...over, status, updatedAt: over.updatedAt ?? at(500) } as SweepTask & { status: TerminalSweepStatus }
  return sweepOutcome(last)
}

const transaction = (txid: string) => ({
  txid,
  rawDataHex: `0a02${txid.slice(0, 8)}`,
  signature: `ff${txid.slice(0, 16)}`,
  expiration: at(60),
  feeLimit: 30_000_000n
})

const isDefect = (exit: Exit.Exit<unknown, unknown>) => Exit.isFailure(exit) && Cause.isDie(exit.cause)

it.scoped("insert: one task per wallet in draft order; a wallet with an unfinished task and a repeated wallet get none", () =>
  withDatabase(Effect.gen(function*() {
    const repo = yield* SweepRepository
    const sql = yield* SqlClient.SqlClient
    const scope = yield* newScope
    const other = yield* newScope
    const [a, b, c] = yield* Effect.forEach(["a", "b", "c"], (name) => addWallet(scope, name))
    const foreign = yield* addWallet(other, "f")
    const first = yield* insertOne(scope, a!)
    const inserted = yield* repo.insert(scope, [
      draftFor(c!, { mode: "fixed", requestedAmount: 25_000_000n, origin: "automation", minimumAmount: 20_000_000n, maxWalletTrxFee: 7n, prepareBy: at(900) }),
      draftFor(a!),
      draftFor(b!),
      draftFor(c!),
      // Another tenant's wallet never gets a task in this scope.
      draftFor(foreign)
    ], at(5))
    expect(inserted.map((t) => t.walletId)).toEqual([c!.id, b!.id])
    expect(BigInt(inserted[0]!.id) > BigInt(first.id)).toBe(true)
    expect(inserted[0]).toEqual({
      id: inserted[0]!.id,
      tenantId: scope.tenantId,
      network: "nile",
      walletId: c!.id,
      address: c!.address,
      mode: "fixed",
      requestedAmount: 25_000_000n,
      minimumAmount: 20_000_000n,
      amount: 0n,
      destination: "TCollectionAddress",
      origin: "automation",
      status: "pending",
      stage: "queued",
      reason: "",
      transaction: null,
      actualFee: 0n,
      actualBandwidthFee: null,
      feeWarning: null,
      feeSource: null,
      preparedEnergy: null,
      estimatedWalletTrxFee: null,
      maxWalletTrxFee: 7n,
      rental: null,
      createdAt: at(5),
      updatedAt: at(5),
      nextStepAt: at(5),
      prepareBy: at(900),
      version: 0
    } satisfies SweepTask)
    expect(inserted[1]).toMatchObject({ mode: "all", requestedAmount: null, origin: "manual", maxWalletTrxFee: 15_000_000n })
    // Task IDs come from the events' sequence: the next event ID is above them.
    const [next] = yield* sql<{ id: string }>`SELECT nextval('task_event_id_seq')::text AS id`
    expect(BigInt(next!.id) > BigInt(inserted[1]!.id)).toBe(true)
    expect(yield* repo.insert(scope, [draftFor(a!), draftFor(b!), draftFor(c!)], at(6))).toEqual([])
    expect(yield* repo.insert(scope, [], at(6))).toEqual([])
    expect(yield* repo.unfinishedCount(scope)).toBe(3)
    expect(yield* repo.unfinishedCount(other)).toBe(0)
    // It runs in the caller's transaction: rolled back with it.
    const d = yield* addWallet(scope, "d")
    const rolledBack = yield* Effect.exit(sql.withTransaction(
      Effect.zipRight(repo.insert(scope, [draftFor(d)], at(7)), Effect.fail("abandoned"))
    ))
    expect(Exit.isFailure(rolledBack)).toBe(true)
    expect(yield* repo.unfinishedCount(scope)).toBe(3)
  })))

it.scoped("signingKey: the wallet's sealed key as stored; a wallet without one is a defect", () =>
  withDatabase(Effect.gen(function*() {
    const repo = yield* SweepRepository
    const scope = yield* newScope
    const blob = randomBytes(60)
    const wallet = yield* Effect.flatMap(WalletRepository, (wallets) =>
      wallets.insert(scope, { customId: "k", address: `T${randomBytes(16).toString("hex")}`, sealedKey: { keyId: "key-7", blob } }))
    const sealed = yield* repo.signingKey(wallet.id)
    expect(sealed.keyId).toBe("key-7")
    expect(Buffer.from(sealed.blob).equals(blob)).toBe(true)
    expect(isDefect(yield* Effect.exit(repo.signingKey("999999" as WalletId)))).toBe(true)
  })))

it.scoped("claim: two claimers on separate connections never get the same task", () =>
  withDatabase(Effect.gen(function*() {
    const repo = yield* SweepRepository
    const sql = yield* SqlClient.SqlClient
    const scope = yield* newScope
    const wallets = yield* Effect.forEach(Array.from({ length: 12 }, (_, i) => `w${i}`), (name) => addWallet(scope, name))
    const tasks = yield* repo.insert(scope, wallets.map((w) => draftFor(w)), at(0))
    // A holds its claim's row locks in an open transaction while B claims: B skips them and
    // takes the others at once, and after A commits the two sets are still disjoint.
    const aClaimed = yield* Deferred.make<ReadonlyArray<SweepTask>>()
    const bDone = yield* Deferred.make<void>()
    const fiberA = yield* Effect.fork(sql.withTransaction(Effect.gen(function*() {
      const mine = yield* repo.claim("nile", "worker-a", at(10), at(70), 5)
      yield* Deferred.succeed(aClaimed, mine)
      yield* Deferred.await(bDone)
      return mine
    })))
    yield* Deferred.await(aClaimed)
    const b = yield* repo.claim("nile", "worker-b", at(10), at(70), 20)
    yield* Deferred.succeed(bDone, undefined)
    const a = yield* Fiber.join(fiberA)
    expect(a.map((t) => t.id)).toEqual(tasks.slice(0, 5).map((t) => t.id))
    expect(b.map((t) => t.id)).toEqual(tasks.slice(5).map((t) => t.id))
    // Everything is now under a live lease.
    expect(yield* repo.claim("nile", "worker-c", at(20), at(80), 20)).toEqual([])

    // Four claimers racing in small batches: every task is claimed exactly once.
    const more = yield* Effect.forEach(Array.from({ length: 40 }, (_, i) => `m${i}`), (name) => addWallet(scope, name))
    yield* repo.insert(scope, more.map((w) => draftFor(w)), at(30))
    const claimLoop = (worker: string) =>
      Effect.iterate({ got: [] as Array<string>, last: -1 }, {
        while: (s) => s.last !== 0,
        body: (s) =>
          Effect.map(repo.claim("nile", worker, at(40), at(100), 3), (batch) => ({
            got: [...s.got, ...batch.map((t) => t.id)],
            last: batch.length
          }))
      }).pipe(Effect.map((s) => s.got))
    const results = yield* Effect.all(["r1", "r2", "r3", "r4"].map(claimLoop), { concurrency: "unbounded" })
    const all = results.flat()
    expect(all.length).toBe(40)
    expect(new Set(all).size).toBe(40)
    const [holders] = yield* sql<{ n: string }>`
      SELECT count(*)::text AS n FROM sweep_tasks WHERE created_at = ${at(30)} AND claimed_by IN ('r1', 'r2', 'r3', 'r4')`
    expect(holders!.n).toBe("40")
  })))

it.scoped("claim: only due unfinished tasks of the network without a live lease; an expired lease is claimable again", () =>
  withDatabase(Effect.gen(function*() {
    const repo = yield* SweepRepository
    const scope = yield* newScope
    const mainScope = { ...scope, network: "main" as const }
    const [early, late] = yield* Effect.forEach(["early", "late"], (name) => addWallet(scope, name))
    const onMain = yield* addWallet(mainScope, "main")
    const t1 = yield* insertOne(scope, early!, at(0))
    const t2 = yield* insertOne(scope, late!, at(50))
    yield* insertOne(mainScope, onMain, at(0))
    // Not due yet: t2 waits until 50.
    const first = yield* repo.claim("nile", "w1", at(10), at(30), 10)
    expect(first.map((t) => t.id)).toEqual([t1.id])
    // The claim's fields are not part of the task; the task is returned as stored.
    expect(first[0]).toEqual(t1)
    // Live lease: nobody else gets it.
    expect((yield* repo.claim("nile", "w2", at(29), at(60), 10)).map((t) => t.id)).toEqual([])
    // At the lease's end it is claimable again; the oldest step first.
    const again = yield* repo.claim("nile", "w2", at(60), at(120), 10)
    expect(again.map((t) => t.id)).toEqual([t1.id, t2.id])
    // The first holder lost it: its step is refused, the new holder's is taken.
    expect(yield* repo.save({ ...t1, stage: "waiting_bandwidth", updatedAt: at(61) }, "w1")).toBe(false)
    expect(yield* repo.save({ ...t1, stage: "waiting_bandwidth", updatedAt: at(61) }, "w2")).toBe(true)
    // A finished task is never claimed, whatever its times.
    const t2Claimed = again[1]!
    expect(yield* repo.finish(outcomeOf(t2Claimed, "cancelled", { reason: "nothing to collect" }), "w2")).toBe(true)
    expect((yield* repo.claim("nile", "w3", at(1_000_000), at(1_000_100), 10)).map((t) => t.id)).toEqual([t1.id])
  })))

it.scoped("claim: tasks nearest the chain first (signed, then broadcast, then ready, then pending), then the oldest step", () =>
  withDatabase(Effect.gen(function*() {
    const repo = yield* SweepRepository
    const scope = yield* newScope
    const wallets = yield* Effect.forEach(["p", "r", "s", "b"], (name) => addWallet(scope, name))
    const [p, r, s, b] = yield* Effect.forEach(wallets, (w, i) => insertOne(scope, w, at(i)))
    const held = yield* repo.claim("nile", "w0", at(10), at(100_000), 10)
    const step = (task: SweepTask, changes: Partial<SweepTask>) =>
      repo.save({ ...held.find((t) => t.id === task.id)!, ...changes, nextStepAt: at(20) }, "w0")
    yield* step(p!, {})
    yield* step(r!, { status: "ready", stage: "ready" })
    yield* step(s!, { status: "signed", stage: "ready", transaction: transaction("d".repeat(64)) })
    yield* step(b!, { status: "broadcast", stage: "ready", transaction: transaction("e".repeat(64)) })
    const order = yield* repo.claim("nile", "w1", at(100), at(200), 10)
    expect(order.map((t) => t.id)).toEqual([s!.id, b!.id, r!.id, p!.id])
    // A smaller claim takes the nearest first.
    yield* Effect.forEach(order, (t) => repo.save({ ...t, nextStepAt: at(100) }, "w1"))
    expect((yield* repo.claim("nile", "w2", at(300), at(400), 2)).map((t) => t.id)).toEqual([s!.id, b!.id])
  })))

it.scoped("save: compare-and-set on the version and the holder; stores every field and releases the claim", () =>
  withDatabase(Effect.gen(function*() {
    const repo = yield* SweepRepository
    const scope = yield* newScope
    const w = yield* addWallet(scope, "w")
    const task = yield* claimed(yield* insertOne(scope, w), "w1")
    const prepared: SweepTask = {
      ...task,
      status: "ready",
      stage: "ready",
      amount: 2n ** 200n,
      feeSource: "rental",
      preparedEnergy: 71_500n,
      estimatedWalletTrxFee: 0n,
      maxWalletTrxFee: 15_000_000n,
      rental: {
        orderId: `sweep-${task.id}`,
        provider: "feee",
        providerOrderId: null,
        quantity: 71_500n,
        estimatedCost: 5_000_000n,
        paidCost: 4_900_000n,
        activationCost: 0n,
        state: "delivered",
        expiresAt: at(3600)
      },
      reason: "",
      updatedAt: at(20),
      nextStepAt: at(21)
    }
    expect(yield* repo.save(prepared, "w1")).toBe(true)
    const found = Option.getOrThrow(yield* repo.find(scope, task.id))
    expect(found.task).toEqual({ ...prepared, version: 1 })
    expect(yield* stored(task.id)).toMatchObject({ version: 1, claimed_by: null })
    // Released: saving again without a claim, or with the old version, is refused.
    expect(yield* repo.save({ ...prepared, version: 1 }, "w1")).toBe(false)
    const reclaimed = yield* claimed(task, "w1", at(30))
    expect(reclaimed.version).toBe(1)
    expect(yield* repo.save({ ...prepared, reason: "stale" }, "w1")).toBe(false)
    // Not the holder.
    expect(yield* repo.save({ ...reclaimed, reason: "intruder" }, "w2")).toBe(false)
    expect(yield* stored(task.id)).toMatchObject({ version: 1, claimed_by: "w1" })
    // A terminal status is finish's to write.
    expect(isDefect(yield* Effect.exit(repo.save({ ...reclaimed, status: "failed" }, "w1")))).toBe(true)
    // A stage change with the same rental order keeps the number; another number is refused.
    expect(isDefect(yield* Effect.exit(repo.save({ ...reclaimed, rental: { ...reclaimed.rental!, orderId: "other" } }, "w1")))).toBe(true)
    expect(yield* repo.save({ ...reclaimed, rental: { ...reclaimed.rental!, state: "expired" }, updatedAt: at(31) }, "w1")).toBe(true)
    expect(Option.getOrThrow(yield* repo.find(scope, task.id)).task.rental?.state).toBe("expired")
  })))

it.scoped("save never replaces or drops a stored transaction, and a signed task must have one", () =>
  withDatabase(Effect.gen(function*() {
    const repo = yield* SweepRepository
    const scope = yield* newScope
    const w = yield* addWallet(scope, "w")
    const task = yield* claimed(yield* insertOne(scope, w), "w1")
    const signedTx = transaction("a".repeat(64))
    // The table refuses a signed task without its transaction.
    expect(isDefect(yield* Effect.exit(repo.save({ ...task, status: "signed", stage: "ready", amount: 5n }, "w1")))).toBe(true)
    expect(yield* stored(task.id)).toMatchObject({ status: "pending", version: 0, claimed_by: "w1" })
    const signed: SweepTask = { ...task, status: "signed", stage: "ready", amount: 5n, transaction: signedTx, updatedAt: at(20) }
    expect(yield* repo.save(signed, "w1")).toBe(true)
    expect(Option.getOrThrow(yield* repo.find(scope, task.id)).task.transaction).toEqual(signedTx)
    const held = yield* claimed(task, "w1", at(30))
    // Another transaction for the same task, another signature or no transaction at all: refused.
    for (
      const replaced of [
        transaction("b".repeat(64)),
        { ...signedTx, signature: "00" },
        { ...signedTx, feeLimit: 1n },
        null
      ]
    ) {
      expect(isDefect(yield* Effect.exit(repo.save({ ...held, status: "broadcast", transaction: replaced }, "w1")))).toBe(true)
    }
    expect(yield* stored(task.id)).toMatchObject({ status: "signed", version: 1, txid: signedTx.txid, claimed_by: "w1" })
    // The same transaction moves on.
    expect(yield* repo.save({ ...held, status: "broadcast", updatedAt: at(31) }, "w1")).toBe(true)
    expect(yield* stored(task.id)).toMatchObject({ status: "broadcast", version: 2, txid: signedTx.txid })
  })))

it.scoped("finish writes the terminal state, the event with the task's ID and, on success only, the wallet's collected total", () =>
  withDatabase(Effect.gen(function*() {
    const repo = yield* SweepRepository
    const wallets = yield* WalletRepository
    const scope = yield* newScope
    const [w, v] = yield* Effect.forEach(["w", "v"], (name) => addWallet(scope, name))
    yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE wallets SET collected_usdt = 7 WHERE id = ${w!.id}`)
    const ok = yield* claimed(yield* insertOne(scope, w!), "w1")
    const bad = yield* claimed(yield* insertOne(scope, v!), "w1")
    // Not terminal: save's to write.
    expect(isDefect(yield* Effect.exit(repo.finish({ ...outcomeOf(ok, "succeeded"), task: { ...ok, status: "broadcast" } as never }, "w1")))).toBe(true)

    const success = outcomeOf(ok, "succeeded", {
      amount: 123_456_789n,
      transaction: transaction("c".repeat(64)),
      actualFee: 13_450_000n,
      actualBandwidthFee: 345_000n,
      updatedAt: at(400)
    })
    // Another worker, or a stale version, loses: nothing is written.
    expect(yield* repo.finish(success, "w2")).toBe(false)
    expect(yield* repo.finish({ ...success, task: { ...success.task, version: 9 } }, "w1")).toBe(false)
    expect(yield* eventRow(ok.id)).toEqual([])
    expect(yield* repo.finish(success, "w1")).toBe(true)
    expect(yield* stored(ok.id)).toEqual({ status: "succeeded", version: 1, claimed_by: null, txid: "c".repeat(64), amount: "123456789" })
    expect(yield* eventRow(ok.id)).toEqual([{
      id: ok.id,
      tenant_id: scope.tenantId,
      network: "nile",
      event_type: "sweep.succeeded",
      deposit_id: null,
      revision: null,
      payload: success.event.payload,
      status: "pending",
      next_attempt: at(400),
      deadline_at: roundDeadline(at(400)),
      created_at: at(400)
    }])
    expect(JSON.parse((yield* eventRow(ok.id))[0]!.payload)).toMatchObject({ event_id: ok.id, task_id: ok.id, amount: "123456789" })
    expect(yield* walletRow(w!.id)).toEqual({ collected: "123456796", last: at(400) })
    // Finished once: the same outcome again is refused (the claim is gone), no second event.
    expect(yield* repo.finish(success, "w1")).toBe(false)
    expect((yield* eventRow(ok.id)).length).toBe(1)
    expect(yield* walletRow(w!.id)).toEqual({ collected: "123456796", last: at(400) })

    const failure = outcomeOf(bad, "failed", { reason: "fixed amount above the balance", updatedAt: at(450) })
    expect(yield* repo.finish(failure, "w1")).toBe(true)
    expect(yield* eventRow(bad.id)).toMatchObject([{ event_type: "sweep.failed", payload: failure.event.payload, created_at: at(450) }])
    expect(yield* walletRow(v!.id)).toEqual({ collected: "0", last: null })
    // A transaction on chain changed the swept wallet's balances: balance sync is asked to read it; nothing else is.
    const staleFrom = (id: string) =>
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ s: string | null }>`SELECT balance_stale_from::text AS s FROM wallets WHERE id = ${id}`).pipe(
        Effect.map(([r]) => r!.s)
      )
    expect(yield* staleFrom(w!.id)).toBe("1")
    expect(yield* staleFrom(v!.id)).toBeNull()
    expect(yield* repo.unfinishedCount(scope)).toBe(0)
    // Both wallets are idle again and can get a new task.
    expect((yield* wallets.findMany(scope, [w!.id, v!.id])).map((x) => x.collectionStatus)).toEqual(["idle", "idle"])
    expect((yield* repo.insert(scope, [draftFor(w!), draftFor(v!)], at(500))).length).toBe(2)
  })))

it.scoped("finish is all or nothing: when the event cannot be written, the task's terminal update rolls back", () =>
  withDatabase(Effect.gen(function*() {
    const repo = yield* SweepRepository
    const sql = yield* SqlClient.SqlClient
    const scope = yield* newScope
    const w = yield* addWallet(scope, "w")
    const task = yield* claimed(yield* insertOne(scope, w), "w1")
    // An event already holds the task's ID (it cannot happen with the shared sequence; forced here).
    yield* insertEvents(sql, [{
      id: task.id as string as EventId, tenantId: scope.tenantId, network: "nile", eventType: "deposit.confirmed", deposit: null,
      payload: "{\"squatter\":true}", dueAt: at(1), deadlineAt: at(2), createdAt: at(1)
    }])
    const success = outcomeOf(task, "succeeded", { amount: 50n, updatedAt: at(400) })
    expect(isDefect(yield* Effect.exit(repo.finish(success, "w1")))).toBe(true)
    expect(yield* stored(task.id)).toEqual({ status: "pending", version: 0, claimed_by: "w1", txid: "", amount: "0" })
    expect(yield* walletRow(w.id)).toEqual({ collected: "0", last: null })
    expect(yield* eventRow(task.id)).toMatchObject([{ event_type: "deposit.confirmed", payload: "{\"squatter\":true}" }])
    expect(yield* repo.unfinishedCount(scope)).toBe(1)
    // The claim still stands, so the sweeper can try again once the way is clear.
    yield* sql`DELETE FROM events WHERE id = ${task.id}`
    expect(yield* repo.finish(success, "w1")).toBe(true)
    expect(yield* walletRow(w.id)).toEqual({ collected: "50", last: at(400) })
    // A terminal task never changes again, whoever writes it.
    expect(isDefect(yield* Effect.exit(sql`UPDATE sweep_tasks SET reason = 'later' WHERE id = ${task.id}`.pipe(Effect.orDie)))).toBe(true)
  })))

it.scoped("find and list carry the webhook summary once the task finished, null before; other scopes see nothing", () =>
  withDatabase(Effect.gen(function*() {
    const repo = yield* SweepRepository
    const scope = yield* newScope
    const other = yield* newScope
    const w = yield* addWallet(scope, "w")
    const task = yield* insertOne(scope, w)
    expect(Option.getOrThrow(yield* repo.find(scope, task.id))).toEqual({ task, webhook: null })
    expect((yield* repo.list(scope, { page: 1, pageSize: 10 })).items).toEqual([{ task, webhook: null }])
    expect(yield* repo.find(other, task.id)).toEqual(Option.none())
    expect(yield* repo.find({ ...scope, network: "main" }, task.id)).toEqual(Option.none())
    expect(yield* repo.list({ ...scope, network: "main" }, { page: 1, pageSize: 10 })).toEqual({ items: [], total: 0 })

    const done = outcomeOf(yield* claimed(task, "w1"), "cancelled", { reason: "nothing to collect", updatedAt: at(300) })
    expect(yield* repo.finish(done, "w1")).toBe(true)
    const view = Option.getOrThrow(yield* repo.find(scope, task.id))
    expect(view.task).toMatchObject({ status: "cancelled", reason: "nothing to collect", version: 1, updatedAt: at(300) })
    expect(view.webhook).toEqual({
      id: task.id,
      network: "nile",
      eventType: "sweep.cancelled",
      status: "pending",
      attempts: 0,
      currentRound: 1,
      nextAttempt: at(300),
      deadlineAt: roundDeadline(at(300)),
      lastError: "",
      createdAt: at(300),
      deliveredAt: null,
      payload: done.event.payload
    })
    expect((yield* repo.list(scope, { page: 1, pageSize: 10 })).items).toEqual([view])
  })))

it.scoped("list: ID descending, filtered by status, wallet and txid, paged with the total", () =>
  withDatabase(Effect.gen(function*() {
    const repo = yield* SweepRepository
    const scope = yield* newScope
    const other = yield* newScope
    const wallets = yield* Effect.forEach(["a", "b", "c", "d", "e"], (name) => addWallet(scope, name))
    const tasks = yield* repo.insert(scope, wallets.map((w) => draftFor(w)), at(0))
    yield* insertOne(other, yield* addWallet(other, "x"))
    const ids = tasks.map((t) => t.id)
    const desc = [...ids].reverse()
    // a: succeeded and then swept again (pending); b: signed with a txid; c: failed.
    const [a1, b, c] = yield* repo.claim("nile", "w1", at(10), at(100), 3)
    expect([a1!.id, b!.id, c!.id]).toEqual(ids.slice(0, 3))
    yield* repo.finish(outcomeOf(a1!, "succeeded", { amount: 1n, transaction: transaction("d".repeat(64)) }), "w1")
    const [a2] = yield* repo.insert(scope, [draftFor(wallets[0]!)], at(600))
    yield* repo.save({ ...b!, status: "signed", stage: "ready", amount: 3n, transaction: transaction("e".repeat(64)) }, "w1")
    yield* repo.finish(outcomeOf(c!, "failed", { reason: "balance too low" }), "w1")

    const idsOf = (page: { readonly items: ReadonlyArray<{ readonly task: SweepTask }> }) => page.items.map((v) => v.task.id)
    const everything = yield* repo.list(scope, { page: 1, pageSize: 10 })
    expect(idsOf(everything)).toEqual([a2!.id, ...desc])
    expect(everything.total).toBe(6)
    expect(everything.items.map((v) => v.webhook?.eventType ?? null)).toEqual([null, null, null, "sweep.failed", null, "sweep.succeeded"])
    const page2 = yield* repo.list(scope, { page: 2, pageSize: 4 })
    expect(idsOf(page2)).toEqual([ids[1], ids[0]])
    expect(page2.total).toBe(6)
    expect(yield* repo.list(scope, { page: 3, pageSize: 4 })).toEqual({ items: [], total: 6 })
    expect(idsOf(yield* repo.list(scope, { page: 1, pageSize: 10, status: "pending" }))).toEqual([a2!.id, ids[4], ids[3]])
    expect(idsOf(yield* repo.list(scope, { page: 1, pageSize: 10, status: "signed" }))).toEqual([ids[1]])
    const ofA = yield* repo.list(scope, { page: 1, pageSize: 1, walletId: wallets[0]!.id })
    expect([idsOf(ofA), ofA.total]).toEqual([[a2!.id], 2])
    expect(idsOf(yield* repo.list(scope, { page: 1, pageSize: 10, txid: "e".repeat(64) }))).toEqual([ids[1]])
    expect(idsOf(yield* repo.list(scope, { page: 1, pageSize: 10, txid: "d".repeat(64), status: "succeeded" }))).toEqual([ids[0]])
    expect(yield* repo.list(scope, { page: 1, pageSize: 10, txid: "f".repeat(64) })).toEqual({ items: [], total: 0 })
    expect(yield* repo.list(scope, { page: 1, pageSize: 10, walletId: (yield* addWallet(other, "y")).id })).toEqual({ items: [], total: 0 })
    expect((yield* repo.list(other, { page: 1, pageSize: 10 })).total).toBe(1)
    expect(yield* repo.unfinishedCount(scope)).toBe(4)
  })))

it.scoped("wallets are collecting while a task is unfinished, in every read, and then unavailable", () =>
  withDatabase(Effect.gen(function*() {
    const repo = yield* SweepRepository
    const walletRepo = yield* WalletRepository
    const sql = yield* SqlClient.SqlClient
    const scope = yield* newScope
    const [a, b, c] = yield* Effect.forEach(["a", "b", "c"], (name) => addWallet(scope, name))
    yield* sql`
      INSERT INTO tenant_settings (tenant_id, network, collection_address, collection_wallet_id)
      VALUES (${scope.tenantId}, 'nile', ${c!.address}, ${c!.id})`
    const query: WalletQuery = { filters: {}, sort: "created_at", order: "desc", page: 1, pageSize: 20 }
    const statuses = Effect.gen(function*() {
      const found = Option.getOrThrow(yield* walletRepo.find(scope, a!.id)).collectionStatus
      const byAddress = Option.getOrThrow(yield* walletRepo.findByAddress(scope, a!.address)).collectionStatus
      const listed = (yield* walletRepo.list(scope, query)).items.map((w) => [w.customId, w.collectionStatus])
      const filtered = (yield* walletRepo.list(scope, { ...query, filters: { address: a!.address.slice(1, 12) } })).items
        .map((w) => w.collectionStatus)
      const many = (yield* walletRepo.findMany(scope, [a!.id, b!.id])).map((w) => w.collectionStatus)
      return { found, byAddress, listed, filtered, many }
    })
    expect(yield* statuses).toEqual({
      found: "idle",
      byAddress: "idle",
      listed: [["c", "idle"], ["b", "idle"], ["a", "idle"]],
      filtered: ["idle"],
      many: ["idle", "idle"]
    })
    expect(yield* walletRepo.unavailable(scope, [a!.id, b!.id, c!.id])).toEqual([c!.id])
    const task = yield* insertOne(scope, a!)
    expect(yield* statuses).toEqual({
      found: "collecting",
      byAddress: "collecting",
      listed: [["c", "idle"], ["b", "idle"], ["a", "collecting"]],
      filtered: ["collecting"],
      many: ["collecting", "idle"]
    })
    expect(yield* walletRepo.unavailable(scope, [a!.id, b!.id, c!.id])).toEqual([a!.id, c!.id])
    expect(yield* walletRepo.unavailable(scope, [b!.id])).toEqual([])
    // Through every step until it finishes.
    const held = yield* claimed(task, "w1")
    yield* repo.save({ ...held, status: "signed", stage: "ready", transaction: transaction("9".repeat(64)) }, "w1")
    expect((yield* statuses).found).toBe("collecting")
    yield* repo.finish(outcomeOf({ ...(yield* claimed(task, "w1", at(20))) }, "succeeded", { amount: 1n }), "w1")
    expect(yield* statuses).toMatchObject({ found: "idle", byAddress: "idle", many: ["idle", "idle"] })
    expect(yield* walletRepo.unavailable(scope, [a!.id, b!.id, c!.id])).toEqual([c!.id])
  })))

it.scoped("the wallet list page stays an index scan and probes the unfinished-task index per page row (EXPLAIN over 20,000 wallets)", () =>
  withDatabase(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const scope = yield* newScope
    yield* sql`
      INSERT INTO wallets (tenant_id, network, address, custom_id, balance_usdt, balance_trx, balance_block)
      SELECT ${scope.tenantId}, 'nile', 'T' || i, 'c' || i, i, i, 1 FROM generate_series(1, 20000) AS i`
    yield* sql`
      INSERT INTO sweep_tasks (tenant_id, network, wallet_id, address, mode, destination, origin, status, created_at, updated_at,
        next_step_at, prepare_by)
      SELECT tenant_id, network, id, address, 'all', 'TDest', 'manual', CASE WHEN id % 3 = 0 THEN 'pending' ELSE 'succeeded' END,
        now(), now(), now(), now()
      FROM wallets WHERE tenant_id = ${scope.tenantId} AND id % 7 = 0`
    yield* sql`ANALYZE wallets`
    yield* sql`ANALYZE sweep_tasks`
    const plan = (statement: Statement.Statement<object>) =>
      Effect.map(sql<{ "QUERY PLAN": string }>`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ${statement}`, (rows) =>
        rows.map((r) => r["QUERY PLAN"]).join("\n"))
    const base: WalletQuery = { filters: {}, sort: "created_at", order: "desc", page: 1, pageSize: 20 }
    const defaultPlan = yield* plan(listStatement(sql, scope, base))
    expect(defaultPlan).toMatch(/Index Scan using wallets_scope_created on wallets w/)
    expect(defaultPlan).toMatch(/Index (Only )?Scan using sweep_tasks_wallet_unfinished on sweep_tasks t \(actual rows=\d+ loops=20\)/)
    expect(defaultPlan).not.toMatch(/Seq Scan/)
    // A filtered page sorted by balance counts every match, but probes tasks for its own rows only.
    const filteredPlan = yield* plan(listStatement(sql, scope, { ...base, sort: "balance_usdt", filters: { usdtMin: 10n } }))
    expect(filteredPlan).toMatch(/sweep_tasks_wallet_unfinished on sweep_tasks t \(actual rows=\d+ loops=20\)/)
    const walletRepo = yield* WalletRepository
    const page = yield* walletRepo.list(scope, base)
    // Pending tasks were given to the wallets whose ID is a multiple of 21.
    expect(page.items.map((w) => w.collectionStatus)).toEqual(
      page.items.map((w) => BigInt(w.id) % 21n === 0n ? "collecting" : "idle")
    )
    expect(page.items.some((w) => w.collectionStatus === "collecting")).toBe(true)
  })))
