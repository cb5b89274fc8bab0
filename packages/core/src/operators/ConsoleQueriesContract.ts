import { describe, expect } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { BalanceLedger } from "../balances/BalanceLedger.js"
import type { WalletId } from "../kernel/Ids.js"
import { ConsoleQueries } from "./ConsoleQueries.js"
import type { DepositBook } from "../scanning/DepositBook.js"
import { onFreshStorage } from "../testing/FreshStorage.js"
import { outboxEvent } from "../testing/OutboxEvents.js"
import { StorageFixtures } from "../testing/StorageFixtures.js"

const address = (n: number) => `TConsoleQueriesWallet${String(n).padStart(13, "0")}`
const txid = (n: number) => n.toString(16).padStart(64, "0")
const at = (iso: string) => new Date(iso)

/**
 * What every ConsoleQueries must do. Its reads span every tenant, so each test runs on a store of
 * its own. Expected values come from the rows each test writes.
 */
export const consoleQueriesContract = <E>(name: string, storage: Layer.Layer<ConsoleQueries | DepositBook | StorageFixtures | BalanceLedger, E>) =>
  describe(`ConsoleQueries contract (${name})`, () => {
    const test = onFreshStorage(storage)

    test("findWallets and findTransaction match exactly the address or txid asked, deposits and sweeps alike", () =>
      Effect.gen(function*() {
        const fixtures = yield* StorageFixtures
        const queries = yield* ConsoleQueries
        const scope = yield* fixtures.scope("nile")
        const wallet = yield* fixtures.wallet(scope, { address: address(1), customId: "order-1", balanceUsdt: 7n, balanceTrx: 1n, balanceBlock: 5n })
        yield* fixtures.wallet(scope, { address: address(2) })
        const deposit = yield* fixtures.seedDeposit(scope, wallet, { txid: txid(1), amount: 1_500_000n })
        const sweep = yield* fixtures.seedSweepTask(scope, wallet, { status: "signed", txid: txid(2) })
        expect(yield* queries.findWallets(address(1))).toEqual([
          { walletId: wallet.id, tenantId: scope.tenantId, network: "nile", address: address(1), customId: "order-1", balanceUsdt: 7n }
        ])
        expect(yield* queries.findWallets(address(1).toLowerCase())).toEqual([])
        expect(yield* queries.findWallets(address(3))).toEqual([])
        expect(yield* queries.findTransaction(txid(1))).toEqual([
          { kind: "deposit", id: deposit.id, tenantId: scope.tenantId, network: "nile", status: "confirmed", address: address(1), amount: 1_500_000n }
        ])
        expect((yield* queries.findTransaction(txid(2))).map((t) => [t.kind, t.id, t.status])).toEqual([["sweep", sweep, "signed"]])
        expect(yield* queries.findTransaction(txid(3))).toEqual([])
      }))

    test("networkActivity: the cursor, confirmed deposits since each bound, the backlog and sweeps by status", () =>
      Effect.gen(function*() {
        const fixtures = yield* StorageFixtures
        const queries = yield* ConsoleQueries
        const scope = yield* fixtures.scope("nile")
        const other = yield* fixtures.scope("main")
        const wallets = yield* Effect.forEach([1, 2, 3, 4, 5], (n) => fixtures.wallet(scope, { address: address(n) }))
        const mainWallet = yield* fixtures.wallet(other, { address: address(9) })
        const since = { hour: at("2030-01-01T11:00:00Z"), day: at("1969-12-31T00:00:00Z") }
        yield* fixtures.seedDeposit(scope, wallets[0]!, { txid: txid(1), amount: 100n, createdAt: at("2030-01-01T11:30:00Z") })
        yield* fixtures.seedDeposit(scope, wallets[1]!, { txid: txid(2), amount: 20n, createdAt: at("2030-01-01T10:59:59Z") })
        yield* fixtures.seedDeposit(scope, wallets[2]!, { txid: txid(3), amount: 3n, createdAt: at("2030-01-01T11:10:00Z"), status: "reverted" })
        yield* fixtures.seedDeposit(other, mainWallet, { txid: txid(4), amount: 4000n, createdAt: at("2030-01-01T11:30:00Z") })
        yield* fixtures.seedSweepTask(scope, wallets[0]!, { status: "pending" })
        yield* fixtures.seedSweepTask(scope, wallets[1]!, { status: "pending" })
        yield* fixtures.seedSweepTask(scope, wallets[2]!, { status: "failed" })
        yield* fixtures.seedSweepTask(scope, wallets[3]!, { status: "succeeded" })
        for (const _ of [1, 2, 3]) yield* outboxEvent(scope, at("2030-01-01T11:00:00Z"))
        yield* outboxEvent(other, at("2030-01-01T11:00:00Z"))
        const activity = yield* queries.networkActivity("nile", since, 100)
        expect(Option.isNone(activity.position)).toBe(true)
        expect(activity.depositsSinceHour).toEqual({ count: 1, usdt: 100n })
        expect(activity.depositsSinceDay).toEqual({ count: 2, usdt: 120n })
        expect(activity.webhookBacklog).toBe(3)
        expect((yield* queries.networkActivity("nile", since, 2)).webhookBacklog).toBe(2)
        expect(activity.sweepsByStatus).toEqual([{ status: "failed", count: 1 }, { status: "pending", count: 2 }])
        expect((yield* queries.networkActivity("main", since, 100)).depositsSinceHour).toEqual({ count: 1, usdt: 4000n })
      }))

    test("sweepsNotSucceeded lists every other status, newest first, with its reason and stage", () =>
      Effect.gen(function*() {
        const fixtures = yield* StorageFixtures
        const queries = yield* ConsoleQueries
        const scope = yield* fixtures.scope("nile")
        const wallets = yield* Effect.forEach([1, 2, 3], (n) => fixtures.wallet(scope, { address: address(n) }))
        const failed = yield* fixtures.seedSweepTask(scope, wallets[0]!, { status: "failed" })
        yield* fixtures.seedSweepTask(scope, wallets[1]!, { status: "succeeded" })
        const pending = yield* fixtures.seedSweepTask(scope, wallets[2]!, { status: "pending" })
        const listed = yield* queries.sweepsNotSucceeded(10)
        expect(listed.map((s) => [s.id, s.status, s.address, s.stage, s.reason])).toEqual([
          [pending, "pending", address(3), "queued", ""],
          [failed, "failed", address(1), "queued", ""]
        ])
        expect((yield* queries.sweepsNotSucceeded(1)).map((s) => s.id)).toEqual([pending])
      }))

    test("tenants: each live scope with its wallets, balance, settings and the day's delivery ends", () =>
      Effect.gen(function*() {
        const fixtures = yield* StorageFixtures
        const queries = yield* ConsoleQueries
        const scope = yield* fixtures.scope("nile", { confirmationRule: "block_6" })
        yield* fixtures.wallet(scope, { address: address(1), balanceUsdt: 5n, balanceTrx: 0n, balanceBlock: 9n })
        yield* fixtures.wallet(scope, { address: address(2), balanceUsdt: 7n, balanceTrx: 0n, balanceBlock: 9n })
        yield* fixtures.wallet(scope, { address: address(3) })
        yield* fixtures.automationSettings(scope, { collectionAddress: address(8), enabled: true, threshold: 42n, updatedAt: at("2030-01-01T00:00:00Z") })
        const gone = yield* fixtures.scope("main")
        yield* fixtures.tenantStatus(gone.tenantId, "deleted", null)
        const rows = yield* queries.tenants(at("1969-01-01T00:00:00Z"), 100)
        expect(rows).toEqual([expect.objectContaining({
          tenantId: scope.tenantId,
          network: "nile",
          status: "active",
          walletCount: 3,
          balanceUsdt: 12n,
          collectionAddress: address(8),
          confirmationRule: "block_6",
          automationEnabled: true,
          automationThreshold: 42n,
          deliveredSinceDay: 0,
          failedSinceDay: 0
        })])
      }))

    test("tenants: the balance held follows every balance the ledger records, and only those it records", () =>
      Effect.gen(function*() {
        const fixtures = yield* StorageFixtures
        const queries = yield* ConsoleQueries
        const ledger = yield* BalanceLedger
        const scope = yield* fixtures.scope("nile")
        const other = yield* fixtures.scope("nile")
        const wallets = yield* Effect.forEach([1, 2, 3, 4, 5], (n) => fixtures.wallet(n === 5 ? other : scope, { address: address(n) }))
        const [a, b, c, d, e] = wallets.map((w) => w.id) as [WalletId, WalletId, WalletId, WalletId, WalletId]
        const reading = (walletId: WalletId, atBlock: bigint, usdt: bigint) => ({ walletId, atBlock, usdt, trx: 1n })
        const held = Effect.map(queries.tenants(at("1969-01-01T00:00:00Z"), 100), (rows) =>
          rows.map((r) => [r.tenantId === scope.tenantId ? "scope" : "other", r.balanceUsdt] as const))
        expect(yield* held).toEqual([["scope", 0n], ["other", 0n]])
        yield* ledger.record("nile", [reading(a, 10n, 100n), reading(b, 10n, 20n), reading(e, 10n, 9n)])
        expect(yield* held).toEqual([["scope", 120n], ["other", 9n]])
        // A later reading replaces a wallet's balance; an older one, or one for another network, changes nothing.
        yield* ledger.record("nile", [reading(a, 11n, 40n), reading(b, 9n, 1_000n), reading(c, 11n, 5n)])
        yield* ledger.record("main", [reading(d, 12n, 7_000n)])
        expect(yield* held).toEqual([["scope", 65n], ["other", 9n]])
        // Batches recorded at once for the same wallets: the total is the last balance each kept.
        yield* Effect.all([
          ledger.record("nile", [reading(a, 20n, 1n), reading(d, 20n, 3n)]),
          ledger.record("nile", [reading(a, 21n, 2n), reading(c, 21n, 0n)]),
          ledger.record("nile", [reading(d, 19n, 500n), reading(b, 22n, 30n)])
        ], { concurrency: "unbounded" })
        expect(yield* held).toEqual([["scope", 35n], ["other", 9n]])
      }))
  })
