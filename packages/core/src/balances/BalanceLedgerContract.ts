import { describe, expect } from "@effect/vitest"
import { Cause, Effect, Exit, type Layer, TestClock } from "effect"
import { BalanceLedger } from "./BalanceLedger.js"
import type { WalletId } from "../kernel/Ids.js"
import { onFreshStorage } from "../testing/FreshStorage.js"
import { StorageFixtures } from "../testing/StorageFixtures.js"

const reading = (walletId: WalletId, atBlock: bigint, usdt = 1n, trx = 2n) => ({ walletId, usdt, trx, atBlock })

/** `count` never-synced wallets of a new tenant on nile, in creation (ID) order. */
const nileWallets = (count: number) =>
  Effect.gen(function*() {
    const fixtures = yield* StorageFixtures
    const scope = yield* fixtures.scope("nile")
    const wallets = yield* Effect.forEach(Array.from({ length: count }), () => fixtures.wallet(scope))
    return { scope, wallets }
  })

const balances = (id: WalletId) => Effect.flatMap(StorageFixtures, (fixtures) => fixtures.walletBalances(id))

/**
 * What every BalanceLedger must do, run against each implementation. `due` and `backlog` read a
 * whole network, so each test runs on a store of its own.
 */
export const balanceLedgerContract = <E>(name: string, storage: Layer.Layer<BalanceLedger | StorageFixtures, E>) =>
  describe(`BalanceLedger contract (${name})`, () => {
    const test = onFreshStorage(storage)

    test("due: stale wallets at or below the solidified block, then never-synced, then the longest-unsynced", () =>
      Effect.gen(function*() {
        const ledger = yield* BalanceLedger
        const fixtures = yield* StorageFixtures
        const { scope, wallets } = yield* nileWallets(7)
        const [a, b, c, d, e, f, g] = wallets.map((w) => w.id) as [WalletId, WalletId, WalletId, WalletId, WalletId, WalletId, WalletId]
        // a synced first, then b, then e and g together: a is the oldest of the rotation.
        yield* ledger.record("nile", [reading(a, 100n)])
        yield* TestClock.adjust("1 minute")
        yield* ledger.record("nile", [reading(b, 100n)])
        yield* TestClock.adjust("1 minute")
        yield* ledger.record("nile", [reading(g, 100n), reading(e, 100n)])
        yield* fixtures.markBalanceStale(e, 150n)
        yield* fixtures.markBalanceStale(b, 120n)
        // Above the solidified block (200): not first, but still in its rotation place (never synced).
        yield* fixtures.markBalanceStale(d, 250n)
        // Another network is never due here.
        yield* fixtures.wallet({ ...scope, network: "main" })
        const due = yield* ledger.due("nile", 10, 200n)
        expect(due.map((w) => w.id)).toEqual([b, e, c, d, f, a, g])
        expect(due[0]!.address).toBe(wallets[1]!.address)
        expect((yield* ledger.due("nile", 3, 200n)).map((w) => w.id)).toEqual([b, e, c])
        // With the solidified block below every mark, only the rotation counts; equal sync times go by ID.
        expect((yield* ledger.due("nile", 10, 110n)).map((w) => w.id)).toEqual([c, d, f, a, b, e, g])
        // Equal marks go by ID too.
        yield* fixtures.markBalanceStale(c, 150n)
        expect((yield* ledger.due("nile", 3, 200n)).map((w) => w.id)).toEqual([b, c, e])
        expect(yield* ledger.backlog("nile")).toEqual({ unsynced: 3, stale: 4 })
        expect(yield* ledger.backlog("main")).toEqual({ unsynced: 1, stale: 0 })
        expect(yield* ledger.due("main", 0, 200n)).toEqual([])
      }))

    test("record writes balances and never moves a wallet to an older block", () =>
      Effect.gen(function*() {
        const ledger = yield* BalanceLedger
        const { scope, wallets: [w] } = yield* nileWallets(1)
        const id = w!.id
        expect(yield* balances(id)).toEqual({ usdt: null, trx: null, block: 0n, syncedAt: null, staleFrom: null })
        yield* TestClock.adjust("1 hour")
        expect(yield* ledger.record("nile", [reading(id, 2_000n, 25_000_000n, 0n)])).toBe(1)
        // A confirmed zero is 0, not null.
        expect(yield* balances(id)).toEqual({ usdt: 25_000_000n, trx: 0n, block: 2_000n, syncedAt: new Date(3_600_000), staleFrom: null })
        yield* TestClock.adjust("1 hour")
        expect(yield* ledger.record("nile", [reading(id, 1_999n, 7n, 7n)])).toBe(0)
        expect(yield* balances(id)).toMatchObject({ usdt: 25_000_000n, block: 2_000n, syncedAt: new Date(3_600_000) })
        // The same block again is a fresh reading of the same state: it renews the sync time.
        expect(yield* ledger.record("nile", [reading(id, 2_000n, 25_000_000n, 0n)])).toBe(1)
        expect((yield* balances(id)).syncedAt).toEqual(new Date(7_200_000))
        // Several readings of one wallet in one batch: the newest wins, whatever the order; the first of equals.
        expect(yield* ledger.record("nile", [reading(id, 2_010n, 9n, 9n), reading(id, 2_005n, 5n, 5n)])).toBe(1)
        expect(yield* balances(id)).toMatchObject({ usdt: 9n, trx: 9n, block: 2_010n })
        expect(yield* ledger.record("nile", [reading(id, 2_012n, 3n, 3n), reading(id, 2_012n, 4n, 4n)])).toBe(1)
        expect(yield* balances(id)).toMatchObject({ usdt: 3n, trx: 3n, block: 2_012n })
        // A reading filed under the wrong network, or of an unknown wallet, writes nothing.
        expect(yield* ledger.record("main", [reading(id, 3_000n)])).toBe(0)
        const other = yield* Effect.flatMap(StorageFixtures, (fixtures) => fixtures.wallet({ ...scope, network: "main" }))
        expect(yield* ledger.record("nile", [reading(other.id, 3_000n)])).toBe(0)
        expect(yield* ledger.record("nile", [reading("999999999" as WalletId, 3_000n)])).toBe(0)
        expect(yield* ledger.record("nile", [])).toBe(0)
        expect((yield* balances(id)).block).toBe(2_012n)
        expect((yield* balances(other.id)).block).toBe(0n)
        // Balances beyond 2^64 survive (numeric(78,0)).
        const big = 2n ** 255n
        yield* ledger.record("nile", [reading(id, 2_013n, big, big)])
        expect(yield* balances(id)).toMatchObject({ usdt: big, trx: big })
      }))

    test("a stale mark survives a reading from below its block and is cleared by one at or above it", () =>
      Effect.gen(function*() {
        const ledger = yield* BalanceLedger
        const fixtures = yield* StorageFixtures
        const { wallets } = yield* nileWallets(2)
        const [w, x] = wallets.map((wallet) => wallet.id) as [WalletId, WalletId]
        yield* fixtures.markBalanceStale(w, 500n)
        yield* fixtures.markBalanceStale(x, 500n)
        expect(yield* ledger.record("nile", [reading(w, 499n), reading(x, 500n)])).toBe(2)
        expect(yield* balances(w)).toMatchObject({ block: 499n, staleFrom: 500n })
        expect(yield* balances(x)).toMatchObject({ block: 500n, staleFrom: null })
        expect(yield* ledger.backlog("nile")).toEqual({ unsynced: 0, stale: 1 })
        yield* ledger.record("nile", [reading(w, 519n)])
        expect(yield* balances(w)).toMatchObject({ block: 519n, staleFrom: null })
        expect(yield* ledger.backlog("nile")).toEqual({ unsynced: 0, stale: 0 })
      }))

    test("a balance is known exactly when its block is above 0: a reading at block 0 is a defect and its batch writes nothing", () =>
      Effect.gen(function*() {
        const ledger = yield* BalanceLedger
        const { wallets } = yield* nileWallets(2)
        const [w, x] = wallets.map((wallet) => wallet.id) as [WalletId, WalletId]
        const exit = yield* Effect.exit(ledger.record("nile", [reading(w, 10n), reading(x, 0n)]))
        expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
        expect(yield* balances(w)).toEqual({ usdt: null, trx: null, block: 0n, syncedAt: null, staleFrom: null })
        expect(yield* balances(x)).toEqual({ usdt: null, trx: null, block: 0n, syncedAt: null, staleFrom: null })
      }))
  })
