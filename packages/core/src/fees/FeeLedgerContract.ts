import { expect, layer } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import type { FeeEntry } from "./FeeEntry.js"
import { FeeLedger } from "./FeeLedger.js"
import type { Network } from "../kernel/Network.js"
import type { TenantScope } from "../tenants/Scope.js"
import { SweepRepository } from "../sweeps/SweepRepository.js"
import type { SweepTask, SweepTaskId, TerminalSweepStatus } from "../sweeps/SweepTask.js"
import { StorageFixtures } from "../testing/StorageFixtures.js"
import { storedTransaction, sweepDraftFor, sweepTime, terminalOutcome } from "../sweeps/SweepTestData.js"

type Ports = FeeLedger | SweepRepository | StorageFixtures

const at = (iso: string) => new Date(iso)

/** An entry of the scope with hand-picked figures: 64,285 energy at 100 SUN, all own unless changed. */
const entry = (scope: TenantScope, taskId: string, over: Partial<FeeEntry> = {}): FeeEntry => ({
  taskId: taskId as SweepTaskId,
  tenantId: scope.tenantId,
  network: scope.network,
  walletId: "1" as FeeEntry["walletId"],
  txid: taskId.padStart(64, "e"),
  blockNumber: 5_000n,
  blockTime: at("2026-03-02T10:00:00Z"),
  energy: { own: 64_285n, delegated: 0n, rented: 0n, burned: 0n },
  networkEnergyFee: 0n,
  networkBandwidthFee: 0n,
  providerEnergyCost: 0n,
  providerActivationCost: 0n,
  lendingFee: 0n,
  energyPrice: 100n,
  burnEquivalent: 6_428_500n,
  saving: 6_428_500n,
  bookedAt: at("2026-03-02T10:05:00.123Z"),
  ...over
})

const newScope = (network: Network = "nile") => Effect.flatMap(StorageFixtures, (f) => f.scope(network))

/** A task of a new wallet of the scope, driven through the port to `status` as the sweeper would leave it. */
const finishedTask = (scope: TenantScope, status: TerminalSweepStatus | "broadcast", over: Partial<SweepTask> = {}) =>
  Effect.gen(function*() {
    const repo = yield* SweepRepository
    const wallet = yield* Effect.flatMap(StorageFixtures, (f) => f.wallet(scope))
    const [task] = yield* repo.insert(scope, [sweepDraftFor(wallet)], sweepTime(0))
    // A claim reads the whole network: take every due task (long lease) and keep ours.
    const claimed = (yield* repo.claim(scope.network, "fees", sweepTime(10), sweepTime(100_000), 1_000_000)).find((t) => t.id === task!.id)!
    const sent = { ...claimed, status: "broadcast" as const, stage: "ready" as const, transaction: storedTransaction(task!.id.padStart(64, "a")) }
    if (status === "broadcast") {
      expect(yield* repo.save(sent, "fees")).toBe(true)
      return task!.id
    }
    expect(yield* repo.finish(terminalOutcome(sent, status, over), "fees")).toBe(true)
    return task!.id
  })

/**
 * What every FeeLedger must do: one entry per task whatever is recorded later, sums and lists of
 * a tenant's network over a period of block times, and the finished tasks not yet booked. The
 * storage is shared by the tests of a run: each test uses its own scopes and task IDs.
 */
export const feeLedgerContract = <E>(name: string, storage: Layer.Layer<Ports, E>) =>
  layer(storage)(`FeeLedger contract (${name})`, (it) => {
    it.effect("records a task's entry once: a second record, whatever its figures, is refused and the first kept", () =>
      Effect.gen(function*() {
        const ledger = yield* FeeLedger
        const scope = yield* newScope()
        const first = entry(scope, "880001", { energy: { own: 0n, delegated: 0n, rented: 65_000n, burned: 65_285n }, networkEnergyFee: 6_528_500n, providerEnergyCost: 5_200_000n, burnEquivalent: 13_028_500n, saving: 1_300_000n })
        expect(yield* ledger.record(first)).toBe(true)
        expect(yield* ledger.record(entry(scope, "880001", { saving: 1n, txid: "f".repeat(64) }))).toBe(false)
        expect(yield* ledger.list(scope, { since: at("2026-01-01T00:00:00Z") }, 10)).toEqual([first])
      }))

    it.effect("totals: the scope's entries whose block time is in [since, until), summed; other tenants and networks apart", () =>
      Effect.gen(function*() {
        const ledger = yield* FeeLedger
        const scope = yield* newScope()
        const other = yield* newScope()
        const mainScope = { ...scope, network: "main" as const }
        // own 64,285; burned 64,285 with 345,000 bandwidth; rented 130,285 with activation; a negative saving.
        yield* ledger.record(entry(scope, "880011", { blockTime: at("2026-03-01T00:00:00Z") }))
        yield* ledger.record(entry(scope, "880012", { blockTime: at("2026-03-05T12:00:00Z"), energy: { own: 0n, delegated: 0n, rented: 0n, burned: 64_285n }, networkEnergyFee: 6_428_500n, networkBandwidthFee: 345_000n, saving: 0n }))
        yield* ledger.record(entry(scope, "880013", { blockTime: at("2026-03-09T23:59:59.999Z"), energy: { own: 0n, delegated: 0n, rented: 130_285n, burned: 0n }, providerEnergyCost: 11_790_000n, providerActivationCost: 1_100_000n, burnEquivalent: 13_028_500n, saving: 138_500n }))
        yield* ledger.record(entry(scope, "880014", { blockTime: at("2026-03-08T00:00:00Z"), energy: { own: 0n, delegated: 64_285n, rented: 0n, burned: 0n }, lendingFee: 537_000n, saving: 5_891_500n }))
        // Outside: before since, at until, another tenant, another network.
        yield* ledger.record(entry(scope, "880015", { blockTime: at("2026-02-28T23:59:59.999Z") }))
        yield* ledger.record(entry(scope, "880016", { blockTime: at("2026-03-10T00:00:00Z") }))
        yield* ledger.record(entry(other, "880017", { blockTime: at("2026-03-02T00:00:00Z") }))
        yield* ledger.record(entry(mainScope, "880018", { blockTime: at("2026-03-02T00:00:00Z") }))
        const period = { since: at("2026-03-01T00:00:00Z"), until: at("2026-03-10T00:00:00Z") }
        expect(yield* ledger.totals(scope, period)).toEqual({
          entries: 4,
          energy: { own: 64_285n, delegated: 64_285n, rented: 130_285n, burned: 64_285n },
          networkEnergyFee: 6_428_500n,
          networkBandwidthFee: 345_000n,
          providerEnergyCost: 11_790_000n,
          providerActivationCost: 1_100_000n,
          lendingFee: 537_000n,
          // 6,428,500 × 3 + 13,028,500
          burnEquivalent: 32_314_000n,
          // 6,428,500 + 0 + 138,500 + 5,891,500
          saving: 12_458_500n
        })
        // Open until: the entry at 2026-03-10 counts too.
        expect((yield* ledger.totals(scope, { since: period.since })).entries).toBe(5)
        expect((yield* ledger.totals(mainScope, period)).entries).toBe(1)
        expect(yield* ledger.totals(scope, { since: at("2027-01-01T00:00:00Z") })).toEqual({
          entries: 0,
          energy: { own: 0n, delegated: 0n, rented: 0n, burned: 0n },
          networkEnergyFee: 0n,
          networkBandwidthFee: 0n,
          providerEnergyCost: 0n,
          providerActivationCost: 0n,
          lendingFee: 0n,
          burnEquivalent: 0n,
          saving: 0n
        })
      }))

    it.effect("networkTotals: every tenant's entries of the network in [since, until), summed; other networks and times apart", () =>
      Effect.gen(function*() {
        const ledger = yield* FeeLedger
        const [first, second] = [yield* newScope(), yield* newScope()]
        // A month no other test books in.
        yield* ledger.record(entry(first, "880031", { blockTime: at("2031-05-01T00:00:00Z"), energy: { own: 0n, delegated: 0n, rented: 0n, burned: 64_285n }, networkEnergyFee: 6_428_500n, saving: 0n }))
        yield* ledger.record(entry(second, "880032", { blockTime: at("2031-05-20T00:00:00Z"), energy: { own: 0n, delegated: 0n, rented: 64_285n, burned: 0n }, providerEnergyCost: 5_785_650n, saving: 642_850n }))
        yield* ledger.record(entry({ ...second, network: "main" }, "880033", { blockTime: at("2031-05-10T00:00:00Z") }))
        yield* ledger.record(entry(first, "880034", { blockTime: at("2031-06-01T00:00:00Z") }))
        const totals = yield* ledger.networkTotals("nile", { since: at("2031-05-01T00:00:00Z"), until: at("2031-06-01T00:00:00Z") })
        expect(totals).toMatchObject({
          entries: 2,
          energy: { own: 0n, delegated: 0n, rented: 64_285n, burned: 64_285n },
          networkEnergyFee: 6_428_500n,
          providerEnergyCost: 5_785_650n,
          saving: 642_850n
        })
        expect((yield* ledger.networkTotals("main", { since: at("2031-05-01T00:00:00Z"), until: at("2031-06-01T00:00:00Z") })).entries).toBe(1)
      }))

    it.effect("list: the scope's entries of the period, newest block first, up to the limit, exactly as recorded", () =>
      Effect.gen(function*() {
        const ledger = yield* FeeLedger
        const scope = yield* newScope()
        const a = entry(scope, "880021", { blockTime: at("2026-03-01T00:00:01Z"), blockNumber: 1n })
        const b = entry(scope, "880022", { blockTime: at("2026-03-03T00:00:00Z"), blockNumber: 90_000_000_000n, saving: -5n })
        const c = entry(scope, "880023", { blockTime: at("2026-03-02T00:00:00Z") })
        for (const e of [a, b, c]) yield* ledger.record(e)
        expect(yield* ledger.list(scope, { since: at("2026-03-01T00:00:00Z") }, 10)).toEqual([b, c, a])
        expect(yield* ledger.list(scope, { since: at("2026-03-01T00:00:00Z") }, 2)).toEqual([b, c])
        expect(yield* ledger.list(scope, { since: at("2026-03-01T00:00:00Z"), until: at("2026-03-02T00:00:00Z") }, 10)).toEqual([a])
      }))

    it.effect("list: entries of the same block time by task ID as a number, highest first (task 10000000 before 9900000)", () =>
      Effect.gen(function*() {
        const ledger = yield* FeeLedger
        const scope = yield* newScope()
        const blockTime = at("2026-03-05T00:00:00Z")
        const [shorter, longer] = [entry(scope, "9900000", { blockTime }), entry(scope, "10000000", { blockTime })]
        for (const e of [shorter, longer]) yield* ledger.record(e)
        expect(yield* ledger.list(scope, { since: at("2026-03-05T00:00:00Z") }, 10)).toEqual([longer, shorter])
      }))

    it.effect("unbooked: succeeded and failed tasks settled from a receipt, without an entry; never cancelled, unfinished or expired ones", () =>
      Effect.gen(function*() {
        const ledger = yield* FeeLedger
        const scope = yield* newScope()
        const succeeded = yield* finishedTask(scope, "succeeded", { actualFee: 6_428_500n, actualBandwidthFee: 0n })
        const reverted = yield* finishedTask(scope, "failed", { reason: "REVERT", actualFee: 3_000_000n, actualBandwidthFee: 0n })
        // Expired without landing: failed with no receipt, so nothing to book.
        const expired = yield* finishedTask(scope, "failed", { reason: "the transaction expired" })
        const cancelled = yield* finishedTask(scope, "cancelled", { transaction: null })
        const unfinished = yield* finishedTask(scope, "broadcast")
        const mine = new Set([succeeded, reverted, expired, cancelled, unfinished])
        const ours = Effect.map(ledger.unbooked(scope.network, 1_000_000), (all) => all.filter((t) => mine.has(t.taskId)))
        expect(yield* ours).toEqual([
          { tenantId: scope.tenantId, network: scope.network, taskId: succeeded },
          { tenantId: scope.tenantId, network: scope.network, taskId: reverted }
        ])
        expect((yield* ledger.unbooked("main", 1_000_000)).filter((t) => mine.has(t.taskId))).toEqual([])
        yield* ledger.record(entry(scope, succeeded))
        expect((yield* ours).map((t) => t.taskId)).toEqual([reverted])
      }))

    it.effect("unbooked after a task: only those of higher ID, in ID order, up to the limit", () =>
      Effect.gen(function*() {
        const ledger = yield* FeeLedger
        const scope = yield* newScope()
        const ids = yield* Effect.forEach([1, 2, 3, 4], () => finishedTask(scope, "succeeded", { actualFee: 0n, actualBandwidthFee: 0n }))
        const mine = new Set(ids)
        const after = (id: SweepTaskId, limit: number) => Effect.map(ledger.unbooked(scope.network, limit, id), (all) => all.map((t) => t.taskId).filter((t) => mine.has(t)))
        expect(yield* after(ids[0]!, 1_000_000)).toEqual(ids.slice(1))
        expect(yield* after(ids[2]!, 1_000_000)).toEqual([ids[3]])
        expect(yield* after(ids[3]!, 1_000_000)).toEqual([])
        // Later tasks of other tests may follow ours: the first of a page of one after ids[1] is ids[2].
        expect((yield* ledger.unbooked(scope.network, 1, ids[1]!)).map((t) => t.taskId)).toEqual([ids[2]])
      }))
  })
