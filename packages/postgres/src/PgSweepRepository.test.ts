import { SqlClient, type Statement } from "@effect/sql"
import { expect, it } from "@effect/vitest"
import { type Kernel, Sweeps, type Tenants, Wallets } from "@collector/core"
import { makeRecordingTracer, storedTransaction, sweepDraftFor, sweepRepositoryContract, sweepTime, terminalOutcome } from "@collector/core/testing"
import { Cause, Deferred, Effect, Exit, Fiber, Layer, Option } from "effect"
import { randomBytes } from "node:crypto"
import { PgStorage } from "./PgStorage.js"
import * as PgSweepRepository from "./PgSweepRepository.js"
import * as PgWalletRepository from "./PgWalletRepository.js"
import { listStatement } from "./PgWalletRepository.js"
import * as PgStorageFixtures from "./testing/PgStorageFixtures.js"
import { TestDatabaseLive } from "./testing/TestDatabase.js"

sweepRepositoryContract("PostgreSQL", Layer.merge(PgStorage, PgStorageFixtures.layer).pipe(Layer.provideMerge(TestDatabaseLive)))

// What only PostgreSQL can show: row locks skipped by a concurrent claim, the table's trigger
// against any writer, the wallet reads' join on unfinished tasks, and query plans. Each test gets
// its own database: a claim reads a whole network, so tests must not share tasks.
const withDatabase = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.provide(effect, Layer.mergeAll(PgSweepRepository.layer, PgWalletRepository.layer).pipe(Layer.provideMerge(TestDatabaseLive)))

const newScope = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* sql<{ id: string }>`INSERT INTO tenants (name) VALUES (${`t-${randomBytes(4).toString("hex")}`}) RETURNING id`
  return { tenantId: row!.id as Kernel.TenantId, network: "nile" } satisfies Tenants.TenantScope
})

const addWallet = (scope: Tenants.TenantScope, customId: string) =>
  Effect.flatMap(Wallets.WalletRepository, (repo) =>
    repo.insert(scope, { customId, address: `T${randomBytes(16).toString("hex")}`, key: Wallets.localKey({ keyId: "k1", blob: randomBytes(60) }) }))

const at = sweepTime

const insertOne = (scope: Tenants.TenantScope, wallet: { readonly id: Kernel.WalletId; readonly address: string }, when = at(0)) =>
  Effect.flatMap(Sweeps.SweepRepository, (repo) => repo.insert(scope, [sweepDraftFor(wallet)], when)).pipe(Effect.map(([task]) => task!))

/** Claims every due task of the network for `worker` (long lease) and returns the one asked for. */
const claimed = (task: Sweeps.SweepTask, worker: string, now = at(10)) =>
  Effect.flatMap(Sweeps.SweepRepository, (repo) => repo.claim(task.network, worker, now, at(100_000), 100)).pipe(
    Effect.map((tasks) => tasks.find((t) => t.id === task.id)!)
  )

const isDefect = (exit: Exit.Exit<unknown, unknown>) => Exit.isFailure(exit) && Cause.isDie(exit.cause)

it.scoped("claim: a claimer skips the rows another claim holds locked in its open transaction, and never waits on them", () =>
  withDatabase(Effect.gen(function*() {
    const repo = yield* Sweeps.SweepRepository
    const sql = yield* SqlClient.SqlClient
    const scope = yield* newScope
    const wallets = yield* Effect.forEach(Array.from({ length: 12 }, (_, i) => `w${i}`), (name) => addWallet(scope, name))
    const tasks = yield* repo.insert(scope, wallets.map((w) => sweepDraftFor(w)), at(0))
    // A holds its claim's row locks in an open transaction while B claims: B skips them and
    // takes the others at once, and after A commits the two sets are still disjoint.
    const aClaimed = yield* Deferred.make<ReadonlyArray<Sweeps.SweepTask>>()
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
  })))

it.scoped("finish of a swept task: the task's compare-and-set, the wallet's books and the event in one statement", () =>
  withDatabase(Effect.gen(function*() {
    const repo = yield* Sweeps.SweepRepository
    const scope = yield* newScope
    const w = yield* addWallet(scope, "w")
    const task = yield* claimed(yield* insertOne(scope, w), "w1")
    const swept = { ...task, transaction: storedTransaction("b".repeat(64)) }
    const recording = makeRecordingTracer()
    expect(yield* repo.finish(terminalOutcome(swept, "succeeded", { amount: 50n }), "w1").pipe(Effect.withTracer(recording.tracer))).toBe(true)
    const statements = recording.ended.filter((span) => span.name === "sql.execute").map((span) => String(span.attributes.get("db.query.text")).trim().split(/\s+/)[0])
    expect(statements).toEqual(["WITH"])
    // A lost compare-and-set changes no book and writes no event.
    expect(yield* repo.finish(terminalOutcome(swept, "succeeded", { amount: 50n }), "w1")).toBe(false)
  })))

it.scoped("the table's trigger refuses any writer: a terminal task never changes, nor what a task was created for, nor its stored transaction", () =>
  withDatabase(Effect.gen(function*() {
    const repo = yield* Sweeps.SweepRepository
    const sql = yield* SqlClient.SqlClient
    const scope = yield* newScope
    const [v, w] = yield* Effect.forEach(["v", "w"], (name) => addWallet(scope, name))
    const done = yield* claimed(yield* insertOne(scope, v!), "w1")
    expect(yield* repo.finish(terminalOutcome(done, "succeeded", { amount: 50n }), "w1")).toBe(true)
    const open = yield* claimed(yield* insertOne(scope, w!), "w1")
    expect(yield* repo.save({ ...open, status: "signed", stage: "ready", transaction: storedTransaction("a".repeat(64)) }, "w1")).toBe(true)
    const update = (statement: Statement.Statement<object>) => Effect.exit(statement.pipe(Effect.orDie))
    expect(isDefect(yield* update(sql`UPDATE sweep_tasks SET reason = 'later' WHERE id = ${done.id}`))).toBe(true)
    expect(isDefect(yield* update(sql`UPDATE sweep_tasks SET destination = 'TElsewhere' WHERE id = ${open.id}`))).toBe(true)
    expect(isDefect(yield* update(sql`UPDATE sweep_tasks SET signature = '00' WHERE id = ${open.id}`))).toBe(true)
    const [row] = yield* sql<{ reason: string }>`SELECT reason FROM sweep_tasks WHERE id = ${done.id}`
    expect(row!.reason).toBe("")
    expect(Option.getOrThrow(yield* repo.find(scope, open.id)).task).toMatchObject({ destination: "TCollectionAddress", transaction: storedTransaction("a".repeat(64)) })
  })))

it.scoped("wallets are collecting while a task is unfinished, in every read, and then unavailable", () =>
  withDatabase(Effect.gen(function*() {
    const repo = yield* Sweeps.SweepRepository
    const walletRepo = yield* Wallets.WalletRepository
    const sql = yield* SqlClient.SqlClient
    const scope = yield* newScope
    const [a, b, c] = yield* Effect.forEach(["a", "b", "c"], (name) => addWallet(scope, name))
    yield* sql`
      INSERT INTO tenant_settings (tenant_id, network, collection_address, collection_wallet_id)
      VALUES (${scope.tenantId}, 'nile', ${c!.address}, ${c!.id})`
    const query: Wallets.WalletQuery = { filters: {}, sort: "created_at", order: "desc", page: 1, pageSize: 20 }
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
    yield* repo.save({ ...held, status: "signed", stage: "ready", transaction: storedTransaction("9".repeat(64)) }, "w1")
    expect((yield* statuses).found).toBe("collecting")
    yield* repo.finish(terminalOutcome({ ...(yield* claimed(task, "w1", at(20))) }, "succeeded", { amount: 1n }), "w1")
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
    const base: Wallets.WalletQuery = { filters: {}, sort: "created_at", order: "desc", page: 1, pageSize: 20 }
    const defaultPlan = yield* plan(listStatement(sql, scope, base))
    expect(defaultPlan).toMatch(/Index Scan using wallets_scope_created on wallets w/)
    expect(defaultPlan).toMatch(/Index (Only )?Scan using sweep_tasks_wallet_unfinished on sweep_tasks t \(actual rows=\d+ loops=20\)/)
    expect(defaultPlan).not.toMatch(/Seq Scan/)
    // A filtered page sorted by balance counts every match, but probes tasks for its own rows only.
    const filteredPlan = yield* plan(listStatement(sql, scope, { ...base, sort: "balance_usdt", filters: { usdtMin: 10n } }))
    expect(filteredPlan).toMatch(/sweep_tasks_wallet_unfinished on sweep_tasks t \(actual rows=\d+ loops=20\)/)
    const walletRepo = yield* Wallets.WalletRepository
    const page = yield* walletRepo.list(scope, base)
    // Pending tasks were given to the wallets whose ID is a multiple of 21.
    expect(page.items.map((w) => w.collectionStatus)).toEqual(
      page.items.map((w) => BigInt(w.id) % 21n === 0n ? "collecting" : "idle")
    )
    expect(page.items.some((w) => w.collectionStatus === "collecting")).toBe(true)
  })))

it.scoped("claim takes at most `limit` tasks, however many are due (the locked rows are picked once)", () =>
  withDatabase(Effect.gen(function*() {
    const repo = yield* Sweeps.SweepRepository
    const sql = yield* SqlClient.SqlClient
    const scope = yield* newScope
    for (let i = 0; i < 40; i++) yield* insertOne(scope, yield* addWallet(scope, `w${i}`))
    // The plan that rescans a LIMIT subquery per row (a nested loop), which a large table can get.
    const first = yield* sql.withTransaction(Effect.gen(function*() {
      yield* sql`SET LOCAL enable_hashjoin = off`
      yield* sql`SET LOCAL enable_mergejoin = off`
      return yield* repo.claim("nile", "w1", at(10), at(100_000), 3)
    }))
    expect(first.length).toBe(3)
    const [row] = yield* sql<{ n: string }>`SELECT count(*)::text AS n FROM sweep_tasks WHERE claimed_by IS NOT NULL`
    expect(row!.n).toBe("3")
  })))
