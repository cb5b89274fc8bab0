import { expect, layer } from "@effect/vitest"
import { Cause, Effect, Exit, type Layer, Option } from "effect"
import type { EventId } from "../deposits/Deposit.js"
import type { WalletId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"
import { roundDeadline } from "../notifications/DeliverySchedule.js"
import { DepositBook } from "../scanning/DepositBook.js"
import type { TenantScope } from "../tenants/Scope.js"
import { SweepRepository } from "./SweepRepository.js"
import type { SweepTask, SweepTaskId } from "./SweepTask.js"
import { type FixtureWallet, type FixtureWalletFields, StorageFixtures } from "../testing/StorageFixtures.js"
import { storedTransaction, sweepDraftFor, sweepTime, terminalOutcome } from "./SweepTestData.js"

type Ports = SweepRepository | DepositBook | StorageFixtures

const at = sweepTime

const newScope = (network: Network = "nile") => Effect.flatMap(StorageFixtures, (fixtures) => fixtures.scope(network))

const addWallet = (scope: TenantScope, fields?: FixtureWalletFields) =>
  Effect.flatMap(StorageFixtures, (fixtures) => fixtures.wallet(scope, fields))

const booksOf = (wallet: { readonly id: WalletId }) => Effect.flatMap(StorageFixtures, (fixtures) => fixtures.sweptWalletBooks(wallet.id))

const insertOne = (scope: TenantScope, wallet: FixtureWallet, when = at(0)) =>
  Effect.flatMap(SweepRepository, (repo) => repo.insert(scope, [sweepDraftFor(wallet)], when)).pipe(Effect.map(([task]) => task!))

/**
 * The storage is shared by every test of a run, and a claim reads a whole network: each test
 * that claims first puts every task already due under a lease that outlives the test's times.
 */
const parkOthers = (network: Network) =>
  Effect.flatMap(SweepRepository, (repo) => repo.claim(network, "parked", at(100_000_000), at(200_000_000), 1_000_000))

/** Claims every due task of the network for `worker` (long lease) and returns the one asked for. */
const claimed = (task: SweepTask, worker: string, now = at(10)) =>
  Effect.flatMap(SweepRepository, (repo) => repo.claim(task.network, worker, now, at(100_000), 100)).pipe(
    Effect.map((tasks) => tasks.find((t) => t.id === task.id)!)
  )

/** A new scope, wallet and task, the task claimed by w1, after parking every other task of nile. */
const newClaimedTask = Effect.gen(function*() {
  yield* parkOthers("nile")
  const scope = yield* newScope()
  const wallet = yield* addWallet(scope)
  const task = yield* claimed(yield* insertOne(scope, wallet), "w1")
  return { scope, wallet, task }
})

const stored = (scope: TenantScope, task: SweepTask) =>
  Effect.flatMap(SweepRepository, (repo) => repo.find(scope, task.id)).pipe(Effect.map((view) => Option.getOrThrow(view).task))

const isDefect = (exit: Exit.Exit<unknown, unknown>) => Exit.isFailure(exit) && Cause.isDie(exit.cause)

/**
 * What every SweepRepository must do: one unfinished task per wallet, claims under leases that
 * exclude other claimers, steps saved by compare-and-set on the version and the claim, and the
 * terminal write with its event (the task's own ID) and its wallet's books all at once.
 */
export const sweepRepositoryContract = <E>(name: string, storage: Layer.Layer<Ports, E>) =>
  layer(storage)(`SweepRepository contract (${name})`, (it) => {
    it.effect("insert: one task per wallet in draft order; a wallet with an unfinished task, a repeated wallet and a wallet of another scope or address get none", () =>
      Effect.gen(function*() {
        const repo = yield* SweepRepository
        const fixtures = yield* StorageFixtures
        const scope = yield* newScope()
        const other = yield* newScope()
        const [a, b, c, d] = yield* Effect.forEach(["a", "b", "c", "d"], () => addWallet(scope))
        const foreign = yield* addWallet(other)
        const first = yield* insertOne(scope, a!)
        const inserted = yield* repo.insert(scope, [
          sweepDraftFor(c!, { mode: "fixed", requestedAmount: 25_000_000n, origin: "automation", minimumAmount: 20_000_000n, maxWalletTrxFee: 7n, prepareBy: at(900) }),
          sweepDraftFor(a!),
          sweepDraftFor(b!),
          sweepDraftFor(c!),
          // Another tenant's wallet never gets a task in this scope, nor a wallet named with another address.
          sweepDraftFor(foreign),
          sweepDraftFor(d!, { address: foreign.address })
        ], at(5))
        expect(inserted.map((t) => t.walletId)).toEqual([c!.id, b!.id])
        expect(BigInt(inserted[0]!.id) > BigInt(first.id)).toBe(true)
        expect(BigInt(inserted[1]!.id) > BigInt(inserted[0]!.id)).toBe(true)
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
          energyPath: null,
          feeReason: null,
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
        expect(Option.getOrThrow(yield* repo.find(scope, inserted[0]!.id)).task).toEqual(inserted[0])
        // Task IDs come from the events' sequence: the next event ID is above them.
        const [nextEvent] = (yield* Effect.flatMap(DepositBook, (book) => book.reserveIds({ deposits: 0, events: 1 }))).events
        expect(BigInt(nextEvent!) > BigInt(inserted[1]!.id)).toBe(true)
        expect(yield* repo.insert(scope, [sweepDraftFor(a!), sweepDraftFor(b!), sweepDraftFor(c!)], at(6))).toEqual([])
        expect(yield* repo.insert(scope, [], at(6))).toEqual([])
        expect(yield* repo.unfinishedCount(scope)).toBe(3)
        expect(yield* repo.unfinishedCount(other)).toBe(0)
        expect(yield* repo.unfinishedCount({ ...scope, network: "main" })).toBe(0)
        // It runs in the caller's transaction: rolled back with it.
        const rolledBack = yield* Effect.exit(fixtures.transaction(
          Effect.zipRight(repo.insert(scope, [sweepDraftFor(d!)], at(7)), Effect.fail("abandoned"))
        ))
        expect(Exit.isFailure(rolledBack)).toBe(true)
        expect(yield* repo.unfinishedCount(scope)).toBe(3)
        expect((yield* repo.insert(scope, [sweepDraftFor(d!)], at(8))).map((t) => t.walletId)).toEqual([d!.id])
      }))

    it.effect("unfinishedByStatus: the network's unfinished tasks by status; finished tasks and other networks' are not counted", () =>
      Effect.gen(function*() {
        const repo = yield* SweepRepository
        // The store is shared by the suite's tests: what they left is the baseline.
        const before = yield* repo.unfinishedByStatus("nile")
        const { task } = yield* newClaimedTask
        const scope = yield* newScope()
        yield* insertOne(scope, yield* addWallet(scope))
        const elsewhere = yield* newScope("main")
        yield* insertOne(elsewhere, yield* addWallet(elsewhere))
        expect(yield* repo.unfinishedByStatus("nile")).toEqual({ ...before, pending: (before.pending ?? 0) + 2 })
        expect(yield* repo.finish(terminalOutcome(task, "cancelled"), "w1")).toBe(true)
        expect(yield* repo.unfinishedByStatus("nile")).toEqual({ ...before, pending: (before.pending ?? 0) + 1 })
        const counts = yield* repo.unfinishedByStatus("main")
        expect(Object.values(counts).every((n) => n > 0)).toBe(true)
        expect(counts.pending).toBeGreaterThanOrEqual(1)
      }))

    it.effect("signingKey: the wallet's sealed key as stored; a wallet without one is a defect", () =>
      Effect.gen(function*() {
        const repo = yield* SweepRepository
        const scope = yield* newScope()
        const blob = new Uint8Array(Array.from({ length: 60 }, (_, i) => (i * 7 + 3) % 256))
        const wallet = yield* addWallet(scope, { key: { store: "local", sealed: { keyId: "key-7", blob } } })
        const key = yield* repo.signingKey(wallet.id)
        expect(key.store).toBe("local")
        expect(key.store === "local" && key.sealed.keyId).toBe("key-7")
        expect(key.store === "local" && [...key.sealed.blob]).toEqual([...blob])
        expect(isDefect(yield* Effect.exit(repo.signingKey("999999999" as WalletId)))).toBe(true)
      }))

    it.effect("signingKey: a token wallet's key is its label and store, with no sealed blob", () =>
      Effect.gen(function*() {
        const repo = yield* SweepRepository
        const scope = yield* newScope()
        const wallet = yield* addWallet(scope, { key: { store: "pkcs11", label: "collector-wallet-0a1b" } })
        expect(yield* repo.signingKey(wallet.id)).toEqual({ store: "pkcs11", label: "collector-wallet-0a1b" })
      }))

    it.effect("claim: claimers racing in small batches get every task exactly once; a live lease keeps out everyone else", () =>
      Effect.gen(function*() {
        const repo = yield* SweepRepository
        yield* parkOthers("nile")
        const scope = yield* newScope()
        const wallets = yield* Effect.forEach(Array.from({ length: 40 }), () => addWallet(scope))
        const tasks = yield* repo.insert(scope, wallets.map((w) => sweepDraftFor(w)), at(30))
        // Until a claim comes back empty; bounded, so a lease that excludes nobody fails instead of looping.
        const claimLoop = (worker: string) =>
          Effect.iterate({ got: [] as Array<string>, last: -1, rounds: 0 }, {
            while: (s) => s.last !== 0 && s.rounds < 50,
            body: (s) =>
              Effect.map(repo.claim("nile", worker, at(40), at(100), 3), (batch) => ({
                got: [...s.got, ...batch.map((t) => t.id)],
                last: batch.length,
                rounds: s.rounds + 1
              }))
          }).pipe(Effect.map((s) => s.got))
        const results = yield* Effect.all(["r1", "r2", "r3", "r4"].map(claimLoop), { concurrency: "unbounded" })
        const all = results.flat()
        expect(all.length).toBe(40)
        expect([...new Set(all)].sort()).toEqual(tasks.map((t) => t.id).sort())
        // Everything is under a live lease: nobody else gets a task until it runs out.
        expect(yield* repo.claim("nile", "r5", at(99), at(200), 100)).toEqual([])
        // Each holder, and only that holder, can save the tasks it got.
        const holderOf = (id: string) => ["r1", "r2", "r3", "r4"][results.findIndex((got) => got.includes(id))]!
        const task = tasks[0]!
        expect(yield* repo.save({ ...task, stage: "waiting_bandwidth" }, holderOf(task.id) === "r1" ? "r2" : "r1")).toBe(false)
        expect(yield* repo.save({ ...task, stage: "waiting_bandwidth" }, holderOf(task.id))).toBe(true)
      }))

    it.effect("claim: only due unfinished tasks of the network without a live lease; an expired lease is claimable again", () =>
      Effect.gen(function*() {
        const repo = yield* SweepRepository
        yield* parkOthers("nile")
        yield* parkOthers("main")
        const scope = yield* newScope()
        const mainScope = yield* newScope("main")
        const [early, late] = yield* Effect.forEach(["early", "late"], () => addWallet(scope))
        const onMain = yield* addWallet(mainScope)
        const t1 = yield* insertOne(scope, early!, at(0))
        const t2 = yield* insertOne(scope, late!, at(50))
        const t3 = yield* insertOne(mainScope, onMain, at(0))
        // Not due yet: t2 waits until 50.
        const first = yield* repo.claim("nile", "w1", at(10), at(30), 10)
        expect(first.map((t) => t.id)).toEqual([t1.id])
        // The claim's fields are not part of the task; the task is returned as stored.
        expect(first[0]).toEqual(t1)
        // Live lease: nobody else gets it.
        expect((yield* repo.claim("nile", "w2", at(29), at(60), 10)).map((t) => t.id)).toEqual([])
        // At the lease's end it is claimable again; the oldest step first.
        const again = yield* repo.claim("nile", "w2", at(30), at(120), 10)
        expect(again.map((t) => t.id)).toEqual([t1.id])
        // Due at its step's very time.
        expect((yield* repo.claim("nile", "w3", at(50), at(120), 10)).map((t) => t.id)).toEqual([t2.id])
        // The first holder lost it: its step is refused, the new holder's is taken.
        expect(yield* repo.save({ ...t1, stage: "waiting_bandwidth", updatedAt: at(61) }, "w1")).toBe(false)
        expect(yield* repo.save({ ...t1, stage: "waiting_bandwidth", updatedAt: at(61) }, "w2")).toBe(true)
        // A finished task is never claimed, whatever its times.
        expect(yield* repo.finish(terminalOutcome(t2, "cancelled", { reason: "nothing to collect" }), "w3")).toBe(true)
        expect((yield* repo.claim("nile", "w4", at(1_000_000), at(1_000_100), 10)).map((t) => t.id)).toEqual([t1.id])
        expect((yield* repo.claim("main", "w4", at(1_000_000), at(1_000_100), 10)).map((t) => t.id)).toEqual([t3.id])
      }))

    it.effect("claim: tasks nearest the chain first (signed, then broadcast or unknown, then ready, then pending), then the oldest step, then the oldest task", () =>
      Effect.gen(function*() {
        const repo = yield* SweepRepository
        yield* parkOthers("nile")
        const scope = yield* newScope()
        const wallets = yield* Effect.forEach(Array.from({ length: 6 }), () => addWallet(scope))
        const [p, r, s, b, u, q] = yield* Effect.forEach(wallets, (w, i) => insertOne(scope, w, at(i)))
        const held = yield* repo.claim("nile", "w0", at(10), at(100_000), 10)
        expect(held.map((t) => t.id)).toEqual([p, r, s, b, u, q].map((t) => t!.id))
        const step = (task: SweepTask, changes: Partial<SweepTask>, next = at(20)) =>
          repo.save({ ...held.find((t) => t.id === task.id)!, ...changes, nextStepAt: next }, "w0")
        yield* step(p!, {})
        yield* step(r!, { status: "ready", stage: "ready" })
        yield* step(s!, { status: "signed", stage: "ready", transaction: storedTransaction("d".repeat(64)) })
        yield* step(b!, { status: "broadcast", stage: "ready", transaction: storedTransaction("e".repeat(64)) }, at(21))
        yield* step(u!, { status: "unknown", stage: "ready", transaction: storedTransaction("f".repeat(64)) })
        yield* step(q!, {}, at(15))
        const order = yield* repo.claim("nile", "w1", at(100), at(200), 10)
        expect(order.map((t) => t.id)).toEqual([s!.id, u!.id, b!.id, r!.id, q!.id, p!.id])
        // A smaller claim takes the nearest first.
        yield* Effect.forEach(order, (t) => repo.save({ ...t, nextStepAt: at(100) }, "w1"))
        expect((yield* repo.claim("nile", "w2", at(300), at(400), 2)).map((t) => t.id)).toEqual([s!.id, b!.id])
      }))

    it.effect("claimOne: one task of the scope in the given statuses, due or not, without a live lease; the holder alone may write it", () =>
      Effect.gen(function*() {
        const repo = yield* SweepRepository
        yield* parkOthers("nile")
        const scope = yield* newScope()
        const other = yield* newScope()
        const [dueLater, leased] = yield* Effect.forEach(["later", "leased"], () => addWallet(scope))
        const notDue = yield* insertOne(scope, dueLater!, at(5_000))
        // Another scope, a status not asked for, an unknown ID: nothing is claimed.
        expect(yield* repo.claimOne(other, notDue.id, ["pending", "ready"], "op", at(10), at(40))).toEqual(Option.none())
        expect(yield* repo.claimOne(scope, notDue.id, ["ready"], "op", at(10), at(40))).toEqual(Option.none())
        expect(yield* repo.claimOne(scope, "999999999999" as SweepTaskId, ["pending"], "op", at(10), at(40))).toEqual(Option.none())
        // Not due until 5,000, claimed at 10: returned as stored.
        expect(yield* repo.claimOne(scope, notDue.id, ["pending", "ready"], "op", at(10), at(40))).toEqual(Option.some(notDue))
        // Its lease keeps out a second operator, and only its holder writes it.
        expect(yield* repo.claimOne(scope, notDue.id, ["pending"], "op2", at(39), at(80))).toEqual(Option.none())
        expect(yield* repo.save({ ...notDue, nextStepAt: at(10) }, "op2")).toBe(false)
        expect(yield* repo.save({ ...notDue, nextStepAt: at(10) }, "op")).toBe(true)
        // A sweeper's live lease keeps the operator out.
        const held = yield* claimed(yield* insertOne(scope, leased!, at(0)), "w2", at(20))
        expect(held).toBeDefined()
        expect(yield* repo.claimOne(scope, held.id, ["pending"], "op", at(30), at(60))).toEqual(Option.none())
        // Once it ran out, the operator gets it.
        expect(Option.map(yield* repo.claimOne(scope, held.id, ["pending"], "op", at(100_001), at(100_100)), (t) => t.id)).toEqual(Option.some(held.id))
      }))

    it.effect("handBack: frees what the named claims still hold on the network, as stored; a task saved since, another claim's and another network's stay; the old claim's late save is refused", () =>
      Effect.gen(function*() {
        const repo = yield* SweepRepository
        yield* parkOthers("nile")
        yield* parkOthers("main")
        const scope = yield* newScope()
        const mainScope = yield* newScope("main")
        const [a, b, c] = yield* Effect.forEach(["a", "b", "c"], () => addWallet(scope))
        const ta = yield* insertOne(scope, a!)
        const tb = yield* insertOne(scope, b!)
        const tm = yield* insertOne(mainScope, yield* addWallet(mainScope))
        // The abandoned claim: both tasks under a 60 s lease; one step of it was saved before the failure.
        const held = yield* repo.claim("nile", "gone#1", at(10), at(60_010), 10)
        expect(held.map((t) => t.id).sort()).toEqual([ta.id, tb.id].sort())
        expect((yield* repo.claim("main", "gone#1", at(10), at(60_010), 10)).map((t) => t.id)).toEqual([tm.id])
        expect(yield* repo.save({ ...tb, stage: "waiting_bandwidth", nextStepAt: at(5_000) }, "gone#1")).toBe(true)
        // Live work of another claim of the same holder.
        const tc = yield* insertOne(scope, c!, at(5))
        expect((yield* repo.claim("nile", "live#2", at(20), at(60_020), 10)).map((t) => t.id)).toEqual([tc.id])
        expect(yield* repo.handBack("nile", ["gone#1", "never#9"])).toEqual([ta.id])
        // As it was stored (version included), and claimable at once, well inside the old lease.
        expect(yield* stored(scope, ta)).toEqual(ta)
        expect((yield* repo.claim("nile", "next#3", at(30), at(60_030), 10)).map((t) => t.id)).toEqual([ta.id])
        // The abandoned work's save arriving late is refused; the new claim's goes through.
        expect(yield* repo.save({ ...ta, stage: "waiting_bandwidth" }, "gone#1")).toBe(false)
        expect(yield* repo.save({ ...ta, stage: "waiting_bandwidth" }, "next#3")).toBe(true)
        // The other claim kept its task.
        expect(yield* repo.save({ ...tc, stage: "waiting_bandwidth" }, "live#2")).toBe(true)
        // Another network's task under the name stays claimed until handed back there.
        expect(yield* repo.claim("main", "other", at(30), at(60_030), 10)).toEqual([])
        expect(yield* repo.handBack("main", ["gone#1"])).toEqual([tm.id])
        expect((yield* repo.claim("main", "other", at(30), at(60_030), 10)).map((t) => t.id)).toEqual([tm.id])
        expect(yield* repo.handBack("nile", [])).toEqual([])
      }))

    it.effect("statusOf: the status of a task of the network whatever its tenant; none for another network or an unknown ID", () =>
      Effect.gen(function*() {
        const repo = yield* SweepRepository
        const { task } = yield* newClaimedTask
        expect(yield* repo.statusOf("nile", task.id)).toEqual(Option.some("pending"))
        expect(yield* repo.statusOf("main", task.id)).toEqual(Option.none())
        expect(yield* repo.statusOf("nile", "999999999999" as SweepTaskId)).toEqual(Option.none())
        expect(yield* repo.finish(terminalOutcome(task, "cancelled"), "w1")).toBe(true)
        expect(yield* repo.statusOf("nile", task.id)).toEqual(Option.some("cancelled"))
      }))

    it.effect("save: compare-and-set on the version and the holder; stores every field a step changes and releases the claim", () =>
      Effect.gen(function*() {
        const repo = yield* SweepRepository
        const { scope, task } = yield* newClaimedTask
        const prepared: SweepTask = {
          ...task,
          status: "ready",
          stage: "ready",
          amount: 2n ** 200n,
          feeSource: "rental",
          preparedEnergy: 71_500n,
          estimatedWalletTrxFee: 0n,
          maxWalletTrxFee: 15_000_000n,
          actualBandwidthFee: 0n,
          feeWarning: "a warning",
          energyPath: "rented",
          feeReason: "renting 71500 energy from \"feee\" for 5000000 SUN, the cheapest healthy quote within max_rental_cost",
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
          nextStepAt: at(21),
          prepareBy: at(4000)
        }
        expect(yield* repo.save(prepared, "w1")).toBe(true)
        expect(yield* stored(scope, task)).toEqual({ ...prepared, version: 1 })
        // Released: saving again without a claim, or with the old version, is refused.
        expect(yield* repo.save({ ...prepared, version: 1 }, "w1")).toBe(false)
        const reclaimed = yield* claimed(task, "w1", at(30))
        expect(reclaimed.version).toBe(1)
        expect(yield* repo.save({ ...prepared, reason: "stale" }, "w1")).toBe(false)
        // Not the holder.
        expect(yield* repo.save({ ...reclaimed, reason: "intruder" }, "w2")).toBe(false)
        expect(yield* stored(scope, task)).toEqual({ ...prepared, version: 1 })
        // What the task was created for is not a step's to change: it stays as stored.
        expect(yield* repo.save({ ...reclaimed, destination: "TElsewhere", requestedAmount: 9n, updatedAt: at(31) }, "w1")).toBe(true)
        expect(yield* stored(scope, task)).toMatchObject({ destination: "TCollectionAddress", requestedAmount: null, version: 2, updatedAt: at(31) })
        const again = yield* claimed(task, "w1", at(40))
        // A terminal status is finish's to write.
        expect(isDefect(yield* Effect.exit(repo.save({ ...again, status: "failed" }, "w1")))).toBe(true)
        // A stage change with the same rental order keeps the number; another number or none is refused.
        expect(isDefect(yield* Effect.exit(repo.save({ ...again, rental: { ...again.rental!, orderId: "other" } }, "w1")))).toBe(true)
        expect(isDefect(yield* Effect.exit(repo.save({ ...again, rental: null }, "w1")))).toBe(true)
        expect(yield* stored(scope, task)).toMatchObject({ version: 2, rental: { orderId: `sweep-${task.id}` } })
        expect(yield* repo.save({ ...again, rental: { ...again.rental!, state: "expired" }, updatedAt: at(41) }, "w1")).toBe(true)
        expect((yield* stored(scope, task)).rental?.state).toBe("expired")
      }))

    it.effect("a rental order number belongs to one task: another task's save with it is a defect", () =>
      Effect.gen(function*() {
        const repo = yield* SweepRepository
        yield* parkOthers("nile")
        const scope = yield* newScope()
        const [v, w] = yield* Effect.forEach(["v", "w"], () => addWallet(scope))
        const first = yield* claimed(yield* insertOne(scope, v!), "w1")
        const second = yield* claimed(yield* insertOne(scope, w!), "w1")
        const rental = {
          orderId: `sweep-order-${first.id}`,
          provider: "sim",
          providerOrderId: null,
          quantity: 1n,
          estimatedCost: 1n,
          paidCost: 0n,
          activationCost: 0n,
          state: "ordering" as const,
          expiresAt: null
        }
        expect(yield* repo.save({ ...first, stage: "renting", rental }, "w1")).toBe(true)
        expect(isDefect(yield* Effect.exit(repo.save({ ...second, stage: "renting", rental }, "w1")))).toBe(true)
        expect(yield* stored(scope, second)).toMatchObject({ version: 0, rental: null })
      }))

    it.effect("save never replaces or drops a stored transaction, and a signed task must have one", () =>
      Effect.gen(function*() {
        const repo = yield* SweepRepository
        const { scope, task } = yield* newClaimedTask
        const signedTx = storedTransaction("a".repeat(64))
        // A signed task without its transaction is refused.
        expect(isDefect(yield* Effect.exit(repo.save({ ...task, status: "signed", stage: "ready", amount: 5n }, "w1")))).toBe(true)
        expect(yield* stored(scope, task)).toMatchObject({ status: "pending", version: 0 })
        const signed: SweepTask = { ...task, status: "signed", stage: "ready", amount: 5n, transaction: signedTx, updatedAt: at(20) }
        expect(yield* repo.save(signed, "w1")).toBe(true)
        expect((yield* stored(scope, task)).transaction).toEqual(signedTx)
        const held = yield* claimed(task, "w1", at(30))
        // Another transaction for the same task, another signature, fee limit or expiration, or no transaction at all: refused.
        for (
          const replaced of [
            storedTransaction("b".repeat(64)),
            { ...signedTx, signature: "00" },
            { ...signedTx, feeLimit: 1n },
            { ...signedTx, expiration: at(61) },
            null
          ]
        ) {
          expect(isDefect(yield* Effect.exit(repo.save({ ...held, status: "broadcast", transaction: replaced }, "w1")))).toBe(true)
        }
        expect(yield* stored(scope, task)).toMatchObject({ status: "signed", version: 1, transaction: signedTx })
        // The same transaction moves on; the claim survived the refused writes.
        expect(yield* repo.save({ ...held, status: "broadcast", updatedAt: at(31) }, "w1")).toBe(true)
        expect(yield* stored(scope, task)).toMatchObject({ status: "broadcast", version: 2, transaction: signedTx })
        expect(yield* repo.list(scope, { page: 1, pageSize: 10, txid: signedTx.txid })).toMatchObject({ total: 1 })
      }))

    it.effect("finish writes the terminal state, the event with the task's ID and, on success only, the wallet's collected total", () =>
      Effect.gen(function*() {
        const repo = yield* SweepRepository
        yield* parkOthers("nile")
        const scope = yield* newScope()
        const w = yield* addWallet(scope, { balanceBlock: 40n, balanceUsdt: 1n, balanceTrx: 1n })
        // Balance sync already knows v changed from block 70 on: a sweep never moves that mark back.
        const v = yield* addWallet(scope, { balanceBlock: 60n, balanceUsdt: 1n, balanceTrx: 1n, balanceStaleFrom: 70n })
        const ok = yield* claimed(yield* insertOne(scope, w), "w1")
        const bad = yield* claimed(yield* insertOne(scope, v), "w1")
        // Not terminal: save's to write.
        expect(isDefect(yield* Effect.exit(repo.finish({ ...terminalOutcome(ok, "succeeded"), task: { ...ok, status: "broadcast" } as never }, "w1"))))
          .toBe(true)

        const success = terminalOutcome(ok, "succeeded", {
          amount: 123_456_789n,
          transaction: storedTransaction("c".repeat(64)),
          actualFee: 13_450_000n,
          actualBandwidthFee: 345_000n,
          updatedAt: at(400)
        })
        // Another worker, or a stale version, loses: nothing is written.
        expect(yield* repo.finish(success, "w2")).toBe(false)
        expect(yield* repo.finish({ ...success, task: { ...success.task, version: 9 } }, "w1")).toBe(false)
        expect(yield* stored(scope, ok)).toEqual(ok)
        expect(yield* booksOf(w)).toEqual({ collectedUsdt: 0n, lastCollectedAt: null, balanceStaleFrom: null })
        expect(yield* repo.finish(success, "w1")).toBe(true)
        const view = Option.getOrThrow(yield* repo.find(scope, ok.id))
        expect(view.task).toEqual({ ...success.task, version: 1 })
        expect(view.webhook).toEqual({
          id: ok.id,
          network: "nile",
          eventType: "sweep.succeeded",
          status: "pending",
          attempts: 0,
          currentRound: 1,
          nextAttempt: at(400),
          deadlineAt: roundDeadline(at(400)),
          lastError: "",
          createdAt: at(400),
          deliveredAt: null,
          payload: success.event.payload
        })
        expect(JSON.parse(view.webhook!.payload)).toMatchObject({ event_id: ok.id, task_id: ok.id, amount: "123456789" })
        // The swept wallet's books: what was collected and when, and balance sync asked to read it again after its last synced block.
        expect(yield* booksOf(w)).toEqual({ collectedUsdt: 123_456_789n, lastCollectedAt: at(400), balanceStaleFrom: 41n })
        // Finished once: the same outcome again is refused (the claim is gone), nothing changes.
        expect(yield* repo.finish(success, "w1")).toBe(false)
        expect(Option.getOrThrow(yield* repo.find(scope, ok.id))).toEqual(view)
        expect(yield* booksOf(w)).toEqual({ collectedUsdt: 123_456_789n, lastCollectedAt: at(400), balanceStaleFrom: 41n })

        // Failed without a transaction: the event, and nothing in the wallet's books.
        const failure = terminalOutcome(bad, "failed", { reason: "fixed amount above the balance", updatedAt: at(450) })
        expect(yield* repo.finish(failure, "w1")).toBe(true)
        expect(Option.getOrThrow(yield* repo.find(scope, bad.id)).webhook).toMatchObject({
          id: bad.id,
          eventType: "sweep.failed",
          payload: failure.event.payload,
          createdAt: at(450)
        })
        expect(yield* booksOf(v)).toEqual({ collectedUsdt: 0n, lastCollectedAt: null, balanceStaleFrom: 70n })
        expect(yield* repo.unfinishedCount(scope)).toBe(0)

        // Both wallets can get a new task. A later success adds to the total; an earlier collection time never moves it back.
        const [ok2, bad2] = yield* repo.insert(scope, [sweepDraftFor(w), sweepDraftFor(v)], at(500))
        const held = yield* repo.claim("nile", "w1", at(510), at(100_000), 100)
        const next = held.find((t) => t.id === ok2!.id)!
        expect(yield* repo.finish(terminalOutcome(next, "succeeded", { amount: 11n, transaction: storedTransaction("9".repeat(64)), updatedAt: at(300) }), "w1"))
          .toBe(true)
        expect(yield* booksOf(w)).toEqual({ collectedUsdt: 123_456_800n, lastCollectedAt: at(400), balanceStaleFrom: 41n })
        // A transaction that reached the chain and failed still changed the wallet's balances.
        const burnt = held.find((t) => t.id === bad2!.id)!
        expect(yield* repo.finish(terminalOutcome(burnt, "failed", { reason: "OUT_OF_ENERGY", transaction: storedTransaction("8".repeat(64)) }), "w1"))
          .toBe(true)
        expect(yield* booksOf(v)).toEqual({ collectedUsdt: 0n, lastCollectedAt: null, balanceStaleFrom: 70n })
      }))

    it.effect("finish is all or nothing: when the event cannot be written, the task's terminal update and the wallet's books roll back", () =>
      Effect.gen(function*() {
        const repo = yield* SweepRepository
        const fixtures = yield* StorageFixtures
        const { scope, wallet: w, task } = yield* newClaimedTask
        // An event already holds the task's ID (it cannot happen with the shared sequence; forced here).
        yield* fixtures.event({
          id: task.id as string as EventId,
          tenantId: scope.tenantId,
          network: "nile",
          eventType: "deposit.confirmed",
          deposit: null,
          payload: "{\"squatter\":true}",
          dueAt: at(1),
          deadlineAt: at(2),
          createdAt: at(1)
        })
        const success = terminalOutcome(task, "succeeded", { amount: 50n, transaction: storedTransaction("7".repeat(64)), updatedAt: at(400) })
        expect(isDefect(yield* Effect.exit(repo.finish(success, "w1")))).toBe(true)
        expect(yield* stored(scope, task)).toEqual(task)
        expect(yield* booksOf(w)).toEqual({ collectedUsdt: 0n, lastCollectedAt: null, balanceStaleFrom: null })
        expect(yield* repo.unfinishedCount(scope)).toBe(1)
        // The claim still stands: the holder's next step is taken.
        expect(yield* repo.save({ ...task, reason: "retrying", updatedAt: at(401) }, "w1")).toBe(true)
      }))

    it.effect("find and list carry the webhook summary once the task finished, null before; other scopes see nothing", () =>
      Effect.gen(function*() {
        const repo = yield* SweepRepository
        yield* parkOthers("nile")
        const scope = yield* newScope()
        const other = yield* newScope()
        const w = yield* addWallet(scope)
        const task = yield* insertOne(scope, w)
        expect(Option.getOrThrow(yield* repo.find(scope, task.id))).toEqual({ task, webhook: null })
        expect((yield* repo.list(scope, { page: 1, pageSize: 10 })).items).toEqual([{ task, webhook: null }])
        expect(yield* repo.find(other, task.id)).toEqual(Option.none())
        expect(yield* repo.find({ ...scope, network: "main" }, task.id)).toEqual(Option.none())
        expect(yield* repo.list({ ...scope, network: "main" }, { page: 1, pageSize: 10 })).toEqual({ items: [], total: 0 })
        expect(yield* repo.list(other, { page: 1, pageSize: 10 })).toEqual({ items: [], total: 0 })

        const done = terminalOutcome(yield* claimed(task, "w1"), "cancelled", { reason: "nothing to collect", updatedAt: at(300) })
        expect(yield* repo.finish(done, "w1")).toBe(true)
        const view = Option.getOrThrow(yield* repo.find(scope, task.id))
        expect(view.task).toMatchObject({ status: "cancelled", reason: "nothing to collect", version: 1, updatedAt: at(300) })
        expect(view.webhook).toMatchObject({ id: task.id, eventType: "sweep.cancelled", nextAttempt: at(300), payload: done.event.payload })
        expect((yield* repo.list(scope, { page: 1, pageSize: 10 })).items).toEqual([view])
        expect(yield* repo.find(other, task.id)).toEqual(Option.none())
      }))

    it.effect("list: ID descending, filtered by status, wallet and txid, paged with the total", () =>
      Effect.gen(function*() {
        const repo = yield* SweepRepository
        yield* parkOthers("nile")
        const scope = yield* newScope()
        const other = yield* newScope()
        const wallets = yield* Effect.forEach(Array.from({ length: 5 }), () => addWallet(scope))
        const tasks = yield* repo.insert(scope, wallets.map((w) => sweepDraftFor(w)), at(0))
        yield* insertOne(other, yield* addWallet(other))
        const ids = tasks.map((t) => t.id)
        const desc = [...ids].reverse()
        // a: succeeded and then swept again (pending); b: signed with a txid; c: failed.
        const [a1, b, c] = (yield* repo.claim("nile", "w1", at(10), at(100), 10)).filter((t) => ids.slice(0, 3).includes(t.id))
        expect([a1!.id, b!.id, c!.id]).toEqual(ids.slice(0, 3))
        yield* repo.finish(terminalOutcome(a1!, "succeeded", { amount: 1n, transaction: storedTransaction("d".repeat(64)) }), "w1")
        const [a2] = yield* repo.insert(scope, [sweepDraftFor(wallets[0]!)], at(600))
        yield* repo.save({ ...b!, status: "signed", stage: "ready", amount: 3n, transaction: storedTransaction("e".repeat(64)) }, "w1")
        yield* repo.finish(terminalOutcome(c!, "failed", { reason: "balance too low" }), "w1")

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
        expect(yield* repo.list(scope, { page: 1, pageSize: 10, txid: "d".repeat(64), status: "pending" })).toEqual({ items: [], total: 0 })
        expect(yield* repo.list(scope, { page: 1, pageSize: 10, txid: "f".repeat(64) })).toEqual({ items: [], total: 0 })
        expect(yield* repo.list(other, { page: 1, pageSize: 10, txid: "e".repeat(64) })).toEqual({ items: [], total: 0 })
        expect(yield* repo.list(scope, { page: 1, pageSize: 10, walletId: (yield* addWallet(other)).id })).toEqual({ items: [], total: 0 })
        expect((yield* repo.list(other, { page: 1, pageSize: 10 })).total).toBe(1)
        expect(yield* repo.unfinishedCount(scope)).toBe(4)
      }))
  })
