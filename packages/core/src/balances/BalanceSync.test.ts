import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Fiber, Layer, Option, Ref, TestClock } from "effect"
import { Chain, type ChainService } from "../chain/Chain.js"
import { ChainUnavailable } from "../chain/ChainErrors.js"
import type { AccountBalances } from "../chain/ChainModel.js"
import { ComponentStatus } from "../engine/ComponentStatus.js"
import type { WalletId } from "../kernel/Ids.js"
import { MemoryTestStorage } from "../testing/MemoryTestStorage.js"
import { StorageFixtures } from "../testing/StorageFixtures.js"
import { BalanceSync } from "./BalanceSync.js"
import type { BalanceSyncSettings } from "./BalanceSyncSettings.js"

/**
 * BalanceSync over the memory storage and a scripted node: the parts the real adapter cannot
 * show under TestClock (pacing, backoff). The same flows against PostgreSQL and the real adapter
 * over the simulator are in packages/postgres/src/BalanceSyncOverSim.test.ts.
 */

interface ScriptedNode {
  readonly solidified: Ref.Ref<bigint>
  readonly down: Ref.Ref<boolean>
  /** Addresses whose reads fail. */
  readonly failing: Ref.Ref<ReadonlySet<string>>
  readonly reads: Ref.Ref<ReadonlyArray<string>>
  readonly solidifiedReads: Ref.Ref<number>
}

const unused = Effect.dieMessage("not used by balance sync")

const scriptedChain = (node: ScriptedNode): ChainService => {
  const unavailable = Effect.flatMap(Ref.get(node.down), (down) => down ? Effect.fail(new ChainUnavailable({ reason: "HTTP 503" })) : Effect.void)
  return {
    headBlock: unused,
    solidifiedBlock: Ref.update(node.solidifiedReads, (n) => n + 1).pipe(
      Effect.zipRight(unavailable),
      Effect.zipRight(Ref.get(node.solidified)),
      Effect.map((number) => ({ number, hash: "00".repeat(32), parentHash: "00".repeat(32), timestamp: new Date(0) }))
    ),
    blockTransfers: () => unused,
    isBlackListed: () => unused,
    account: () => unused,
    balances: (address, solidified) =>
      Effect.gen(function*() {
        yield* Ref.update(node.reads, (reads) => [...reads, address])
        yield* unavailable
        if ((yield* Ref.get(node.failing)).has(address)) return yield* new ChainUnavailable({ reason: `timeout reading ${address}` })
        // Balances derive from the address, so every reading can be checked.
        const n = BigInt(address.slice(1))
        return { address, activated: true, trx: n * 10n, usdt: n * 1_000n, atBlock: solidified } satisfies AccountBalances
      }),
    parameters: unused,
    usdtBalance: () => unused,
    trxBalance: () => unused,
    resources: () => unused,
    estimateTransferEnergy: () => unused,
    buildUsdtTransfer: () => unused,
    broadcast: () => unused,
    receipt: () => unused,
    stakeTotals: () => unused,
    energyStake: () => unused,
    delegatableEnergyStake: () => unused,
    lentEnergyStake: () => unused,
    buildEnergyLoan: () => unused,
    buildEnergyReclaim: () => unused,
    buildStake: () => unused,
    buildUnstake: () => unused
  }
}

const setup = (settings: Partial<BalanceSyncSettings> = {}) =>
  Effect.gen(function*() {
    const node: ScriptedNode = {
      solidified: yield* Ref.make(1_000n),
      down: yield* Ref.make(false),
      failing: yield* Ref.make<ReadonlySet<string>>(new Set()),
      reads: yield* Ref.make<ReadonlyArray<string>>([]),
      solidifiedReads: yield* Ref.make(0)
    }
    const layer = BalanceSync.layer(settings).pipe(
      Layer.provideMerge(Layer.mergeAll(
        MemoryTestStorage,
        Layer.succeed(Chain, scriptedChain(node))
      ))
    )
    const context = yield* Layer.build(layer)
    return { node, context }
  })

/** `count` wallets of one tenant on nile at addresses T1, T2, ..., created in that order; their IDs by number. */
const addWallets = (count: number) =>
  Effect.gen(function*() {
    const fixtures = yield* StorageFixtures
    const scope = yield* fixtures.scope("nile")
    const wallets = yield* Effect.forEach(Array.from({ length: count }, (_, i) => i + 1), (n) => fixtures.wallet(scope, { address: `T${n}` }))
    return (n: number): WalletId => wallets[n - 1]!.id
  })

const balancesOf = (id: WalletId) => Effect.flatMap(StorageFixtures, (fixtures) => fixtures.walletBalances(id))

const statusOf = Effect.map(Effect.flatMap(ComponentStatus, (s) => s.list("nile")), (list) => list.find((r) => r.component === "balance_sync"))

describe("BalanceSync", () => {
  it.scoped("reads stale wallets first, records the batch and reports ok", () =>
    Effect.gen(function*() {
      const { context, node } = yield* setup({ batchSize: 3 })
      yield* Effect.gen(function*() {
        const id = yield* addWallets(6)
        const fixtures = yield* StorageFixtures
        yield* fixtures.markBalanceStale(id(5), 990n)
        // Marked above the solidified block: a reading now could not clear it, so it waits its turn.
        yield* fixtures.markBalanceStale(id(6), 1_010n)
        const sync = yield* BalanceSync
        const batch = yield* sync.syncBatch("nile")
        expect(yield* Ref.get(node.reads)).toEqual(["T5", "T1", "T2"])
        expect(batch).toMatchObject({ picked: 3, recorded: 3, failed: 0, atBlock: Option.some(1_000n), error: Option.none() })
        expect(yield* balancesOf(id(5))).toMatchObject({ usdt: 5_000n, trx: 50n, block: 1_000n, staleFrom: null })
        expect(yield* balancesOf(id(3))).toMatchObject({ usdt: null, block: 0n })
        expect(yield* statusOf).toMatchObject({
          status: "ok",
          detail: "3 wallets unsynced, 1 touched by deposits waiting; last batch 3 wallets at block 1000"
        })
      }).pipe(Effect.provide(context))
    }))

  it.scoped("keeps the other wallets' readings when one wallet fails, and reports degraded", () =>
    Effect.gen(function*() {
      const { context, node } = yield* setup({ batchSize: 4 })
      yield* Effect.gen(function*() {
        const id = yield* addWallets(4)
        yield* Ref.set(node.failing, new Set(["T2"]))
        const batch = yield* (yield* BalanceSync).syncBatch("nile")
        expect(batch).toMatchObject({ picked: 4, recorded: 3, failed: 1 })
        expect(yield* balancesOf(id(2))).toMatchObject({ block: 0n, usdt: null, syncedAt: null })
        expect(yield* balancesOf(id(4))).toMatchObject({ block: 1_000n, usdt: 4_000n })
        expect(yield* statusOf).toMatchObject({
          status: "degraded",
          detail: "1 wallet unsynced, 0 touched by deposits waiting; last batch 3 wallets at block 1000; 1 of 4 failed: wallet: ChainUnavailable: timeout reading T2"
        })
        // The failed wallet was never synced, so it leads the next batch.
        yield* Ref.set(node.failing, new Set())
        yield* Ref.set(node.reads, [])
        yield* (yield* BalanceSync).syncBatch("nile")
        expect((yield* Ref.get(node.reads))[0]).toBe("T2")
      }).pipe(Effect.provide(context))
    }))

  it.scoped("paces the loop at the configured wallets per second (TestClock)", () =>
    Effect.gen(function*() {
      const { context, node } = yield* setup({ batchSize: 10, walletsPerSecond: 2 })
      yield* Effect.gen(function*() {
        yield* addWallets(1_000)
        const fiber = yield* Effect.fork((yield* BalanceSync).run("nile"))
        yield* TestClock.adjust("1 millis")
        // The first batch goes at once; each batch of 10 then owns 5 s.
        expect((yield* Ref.get(node.reads)).length).toBe(10)
        yield* TestClock.adjust("4998 millis")
        expect((yield* Ref.get(node.reads)).length).toBe(10)
        yield* TestClock.adjust("2 millis")
        expect((yield* Ref.get(node.reads)).length).toBe(20)
        yield* TestClock.adjust("10 minutes")
        // 605 s at 2 wallets a second, plus the first batch's head start.
        const reads = yield* Ref.get(node.reads)
        expect(reads.length).toBe(605 * 2 + 10)
        // A full rotation before any wallet is read twice.
        expect(new Set(reads.slice(0, 1_000)).size).toBe(1_000)
        expect(reads[1_000]).toBe("T1")
        yield* Fiber.interrupt(fiber)
      }).pipe(Effect.provide(context))
    }))

  it.scoped("backs off while the node is down, keeps the state, and recovers", () =>
    Effect.gen(function*() {
      const { context, node } = yield* setup({ batchSize: 5, walletsPerSecond: 5, backoff: Duration.seconds(10), maxBackoff: Duration.seconds(40) })
      yield* Effect.gen(function*() {
        const id = yield* addWallets(10)
        yield* Ref.set(node.down, true)
        const fiber = yield* Effect.fork((yield* BalanceSync).run("nile"))
        yield* TestClock.adjust("1 millis")
        expect(yield* statusOf).toMatchObject({ status: "degraded", detail: "10 wallets unsynced, 0 touched by deposits waiting; last batch 0 wallets; node: ChainUnavailable: HTTP 503" })
        // After each failed batch: the pace of an empty batch (1 s) plus 10 s, 20 s, then 40 s (capped).
        const attemptsAfter = (duration: Duration.DurationInput) =>
          Effect.zipRight(TestClock.adjust(duration), Ref.get(node.solidifiedReads))
        expect(yield* attemptsAfter("0 millis")).toBe(1)
        expect(yield* attemptsAfter("10998 millis")).toBe(1)
        expect(yield* attemptsAfter("1 millis")).toBe(2)
        expect(yield* attemptsAfter("20999 millis")).toBe(2)
        expect(yield* attemptsAfter("1 millis")).toBe(3)
        expect(yield* attemptsAfter("41 seconds")).toBe(4)
        expect(yield* attemptsAfter("41 seconds")).toBe(5)
        expect((yield* Ref.get(node.reads)).length).toBe(0)
        expect(yield* balancesOf(id(1))).toMatchObject({ block: 0n, usdt: null })
        yield* Ref.set(node.down, false)
        yield* TestClock.adjust("41 seconds")
        expect((yield* Ref.get(node.reads)).length).toBe(5)
        expect(yield* statusOf).toMatchObject({ status: "ok" })
        // Back to the plain pace: the next batch 1 s later.
        yield* TestClock.adjust("1 seconds")
        expect((yield* Ref.get(node.reads)).length).toBe(10)
        yield* Fiber.interrupt(fiber)
      }).pipe(Effect.provide(context))
    }))
})
