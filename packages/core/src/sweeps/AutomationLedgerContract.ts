import { describe, expect } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import type { WalletId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"
import type { TenantScope } from "../tenants/Scope.js"
import { AutomationLedger } from "./AutomationLedger.js"
import { onFreshStorage } from "../testing/FreshStorage.js"
import { type FixtureAutomationSettings, StorageFixtures } from "../testing/StorageFixtures.js"

const t0 = new Date("2026-06-01T12:00:00Z")
const later = (minutes: number, millis = 0) => new Date(t0.getTime() + minutes * 60_000 + millis)

const collection = "TCollectionAddress000000000000000x"

/** A new tenant's scope with automation on (60-minute interval) and a collection address, unless `fields` say otherwise. */
const automatedScope = (fields: FixtureAutomationSettings = {}, network: Network = "nile") =>
  Effect.gen(function*() {
    const fixtures = yield* StorageFixtures
    const scope = yield* fixtures.scope(network)
    yield* fixtures.automationSettings(scope, { enabled: true, collectionAddress: collection, intervalMinutes: 60, ...fields })
    return scope
  })

const claimed = (network: Network, now: Date, until: Date, limit = 100) =>
  Effect.flatMap(AutomationLedger, (ledger) => ledger.claimDue(network, now, until, limit)).pipe(
    Effect.map((due) => due.map((d) => d.scope.tenantId).sort())
  )

const tenantsOf = (...scopes: ReadonlyArray<TenantScope>) => scopes.map((s) => s.tenantId).sort()

const round = (scope: TenantScope) => Effect.flatMap(StorageFixtures, (fixtures) => fixtures.automationRound(scope))

/**
 * What every AutomationLedger must do, run against each implementation. `claimDue` claims across
 * a whole network, so each test runs on a store of its own.
 */
export const automationLedgerContract = <E>(name: string, storage: Layer.Layer<AutomationLedger | StorageFixtures, E>) =>
  describe(`AutomationLedger contract (${name})`, () => {
    const test = onFreshStorage(storage)

    test("claimDue claims the enabled, due, unclaimed scopes of available tenants with a collection address", () =>
      Effect.gen(function*() {
        const fixtures = yield* StorageFixtures
        const ledger = yield* AutomationLedger
        const neverRun = yield* automatedScope({
          threshold: 25_000_000n, maxWalletTrxFee: 3n, maxRentalCost: 4n, rentalAllowed: true, updatedAt: later(-600)
        })
        const intervalUp = yield* automatedScope({ lastRunAt: later(-60) })
        const claimRanOut = yield* automatedScope({ roundClaimedUntil: t0 })
        const expiringLater = yield* automatedScope()
        yield* fixtures.tenantStatus(expiringLater.tenantId, "active", later(0, 1))
        // Each of these is left alone.
        yield* automatedScope({ enabled: false })
        yield* automatedScope({ collectionAddress: "" })
        const dueInAMoment = yield* automatedScope({ lastRunAt: later(-60, 1) })
        const claimedElsewhere = yield* automatedScope({ roundClaimedUntil: later(0, 1) })
        const disabled = yield* automatedScope()
        yield* fixtures.tenantStatus(disabled.tenantId, "disabled", null)
        const expired = yield* automatedScope()
        yield* fixtures.tenantStatus(expired.tenantId, "active", t0)
        const onMain = yield* automatedScope({}, "main")

        const until = later(10)
        const due = yield* ledger.claimDue("nile", t0, until, 100)
        expect(due.map((d) => d.scope.tenantId).sort()).toEqual(tenantsOf(neverRun, intervalUp, claimRanOut, expiringLater))
        expect(due.find((d) => d.scope.tenantId === neverRun.tenantId)).toEqual({
          scope: { tenantId: neverRun.tenantId, network: "nile" },
          policy: {
            enabled: true,
            threshold: 25_000_000n,
            intervalMinutes: 60,
            maxWalletTrxFee: 3n,
            maxRentalCost: 4n,
            rentalAllowed: true,
            updatedAt: later(-600)
          }
        })
        expect(yield* round(neverRun)).toEqual({ lastRunAt: null, roundClaimedUntil: until })
        // Claimed: no other claimer gets them until the claim runs out (meanwhile two more scopes fall due).
        expect(yield* claimed("nile", t0, later(20))).toEqual([])
        expect(yield* claimed("nile", later(10, -1), later(20))).toEqual(tenantsOf(dueInAMoment, claimedElsewhere))
        // The claims ran out; one tenant has expired since.
        expect(yield* claimed("nile", until, later(20))).toEqual(tenantsOf(neverRun, intervalUp, claimRanOut))
        expect(yield* round(neverRun)).toEqual({ lastRunAt: null, roundClaimedUntil: later(20) })
        expect(yield* claimed("main", t0, until)).toEqual(tenantsOf(onMain))
      }))

    test("claimDue takes never-run scopes first, then the longest since their last run, ties by tenant, at most `limit`", () =>
      Effect.gen(function*() {
        const ranThreeHoursAgo = yield* automatedScope({ lastRunAt: later(-180) })
        const neverRun = yield* automatedScope()
        const ranTwoHoursAgo = yield* automatedScope({ lastRunAt: later(-120) })
        const neverRunEither = yield* automatedScope()
        const sameAsFirst = yield* automatedScope({ lastRunAt: later(-180) })
        expect(yield* claimed("nile", t0, later(10), 0)).toEqual([])
        const order = []
        for (let i = 0; i < 6; i++) order.push(...(yield* claimed("nile", t0, later(10), 1)))
        expect(order).toEqual([neverRun, neverRunEither, ranThreeHoursAgo, sameAsFirst, ranTwoHoursAgo].map((s) => s.tenantId))
        expect(yield* claimed("nile", later(10), later(20), 2)).toEqual(tenantsOf(neverRun, neverRunEither))
      }))

    // Written in another order than the claim's (as PostgreSQL's heap holds them): the claim's order is kept.
    test("claimDue returns the scopes it claims in its order", () =>
      Effect.gen(function*() {
        const ledger = yield* AutomationLedger
        const ranThreeHoursAgo = yield* automatedScope({ lastRunAt: later(-180) })
        const neverRun = yield* automatedScope()
        const ranTwoHoursAgo = yield* automatedScope({ lastRunAt: later(-120) })
        const neverRunEither = yield* automatedScope()
        const sameAsFirst = yield* automatedScope({ lastRunAt: later(-180) })
        const due = yield* ledger.claimDue("nile", t0, later(10), 100)
        expect(due.map((d) => d.scope.tenantId)).toEqual(
          [neverRun, neverRunEither, ranThreeHoursAgo, sameAsFirst, ranTwoHoursAgo].map((s) => s.tenantId)
        )
      }))

    test("claimDue claims at most `limit` scopes, however many are due", () =>
      Effect.gen(function*() {
        const scopes = yield* Effect.forEach([1, 2, 3, 4], () => automatedScope())
        expect(yield* claimed("nile", t0, later(10), 1)).toEqual(tenantsOf(scopes[0]!))
        expect(yield* claimed("nile", t0, later(10), 2)).toEqual(tenantsOf(scopes[1]!, scopes[2]!))
        expect(yield* claimed("nile", t0, later(10), 2)).toEqual(tenantsOf(scopes[3]!))
      }))

    test("finishRound marks the round run and ends the claim, only under the claim it was run with", () =>
      Effect.gen(function*() {
        const ledger = yield* AutomationLedger
        const scope = yield* automatedScope({ intervalMinutes: 5 })
        expect(yield* claimed("nile", t0, later(10))).toEqual(tenantsOf(scope))
        // Another claim's end changes nothing.
        yield* ledger.finishRound(scope, t0, later(11))
        expect(yield* round(scope)).toEqual({ lastRunAt: null, roundClaimedUntil: later(10) })
        yield* ledger.finishRound(scope, later(1), later(10))
        expect(yield* round(scope)).toEqual({ lastRunAt: later(1), roundClaimedUntil: null })
        // Due again an interval after the round's mark.
        expect(yield* claimed("nile", later(6, -1), later(16))).toEqual([])
        expect(yield* claimed("nile", later(6), later(16))).toEqual(tenantsOf(scope))

        // A worker whose claim ran out and was taken over neither ends the new claim nor moves the mark.
        const takenOver = yield* automatedScope()
        expect(yield* claimed("nile", t0, later(1))).toEqual(tenantsOf(takenOver))
        expect(yield* claimed("nile", later(2), later(12))).toEqual(tenantsOf(takenOver))
        yield* ledger.finishRound(takenOver, t0, later(1))
        expect(yield* round(takenOver)).toEqual({ lastRunAt: null, roundClaimedUntil: later(12) })
        yield* ledger.finishRound(takenOver, later(3), later(12))
        expect(yield* round(takenOver)).toEqual({ lastRunAt: later(3), roundClaimedUntil: null })
        // A scope without settings has no round to finish.
        const bare = yield* Effect.flatMap(StorageFixtures, (fixtures) => fixtures.scope("nile"))
        yield* ledger.finishRound(bare, t0, later(1))
        expect(yield* round(bare)).toEqual({ lastRunAt: null, roundClaimedUntil: null })
      }))

    test("candidates: synced wallets at or above the threshold that can start a sweep, largest balance first, ties by ID descending", () =>
      Effect.gen(function*() {
        const ledger = yield* AutomationLedger
        const fixtures = yield* StorageFixtures
        const scope = yield* fixtures.scope("nile")
        const holding = (usdt: bigint, of: TenantScope = scope) => fixtures.wallet(of, { balanceUsdt: usdt, balanceTrx: 0n, balanceBlock: 1n })
        const fifty = yield* holding(50n)
        const hundred = yield* holding(100n)
        const hundredToo = yield* holding(100n)
        const atThreshold = yield* holding(10n)
        yield* holding(9n)
        yield* fixtures.wallet(scope)
        const sweeping = yield* holding(200n)
        yield* fixtures.seedSweepTask(scope, sweeping, { status: "pending" })
        const broadcasting = yield* holding(250n)
        yield* fixtures.seedSweepTask(scope, broadcasting, { status: "broadcast", txid: "e1".repeat(32) })
        const swept = yield* holding(150n)
        yield* fixtures.seedSweepTask(scope, swept, { status: "succeeded" })
        yield* fixtures.seedSweepTask(scope, swept, { status: "failed" })
        const collecting = yield* holding(300n)
        yield* fixtures.automationSettings(scope, { collectionAddress: collecting.address, collectionWalletId: collecting.id })
        yield* holding(1_000n, yield* fixtures.scope("nile"))
        yield* holding(1_000n, { ...scope, network: "main" })

        const expected: ReadonlyArray<WalletId> = [swept.id, hundredToo.id, hundred.id, fifty.id, atThreshold.id]
        expect(yield* ledger.candidates(scope, 10n, 100)).toEqual(expected)
        expect(yield* ledger.candidates(scope, 10n, 2)).toEqual(expected.slice(0, 2))
        expect(yield* ledger.candidates(scope, 101n, 100)).toEqual([swept.id])
        expect(yield* ledger.candidates(scope, 2n ** 200n, 100)).toEqual([])
      }))
  })
