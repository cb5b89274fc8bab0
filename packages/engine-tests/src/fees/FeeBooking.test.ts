import { adapterFor, signAndBroadcast, startSimNode, usdtTransfer, wallet } from "@collector/tron-sim/testing"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Metric } from "effect"
import { Chain, Delegation, Fees, Memory, Sweeps } from "@collector/core"
import {
  MemoryStorageFixtures,
  StorageFixtures,
  storedTransaction,
  sweepDraftFor,
  sweepTime,
  terminalOutcome
} from "@collector/core/testing"

/*
 * Booking on the simulated node through the real adapter. The sender has TRX but no energy, the
 * recipient already holds USDT, so the transfer uses 64,285 energy and burns it at the simulator's
 * mainnet price of 100 SUN: 6,428,500 SUN (figures from docs/fees.md, worked by hand). Its ~345
 * bytes come out of the free 600 a day, so no bandwidth is burned.
 */

const sender = wallet(91)
const recipient = wallet(92)

const count = (metric: Metric.Metric.Counter<bigint>) => Effect.map(Metric.value(metric), (state) => state.count)

/** A sweep task of the sender's wallet, finished as the sweeper leaves a settled one, with the chain's txid. */
const settledTask = (txid: string, address = sender.address) =>
  Effect.gen(function*() {
    const fixtures = yield* StorageFixtures
    const repo = yield* Sweeps.SweepRepository
    const scope = yield* fixtures.scope("nile")
    const w = yield* fixtures.wallet(scope, { address })
    const [task] = yield* repo.insert(scope, [sweepDraftFor(w, { destination: recipient.address })], sweepTime(0))
    const claimed = (yield* repo.claim("nile", "w1", sweepTime(10), sweepTime(1000), 10)).find((t) => t.id === task!.id)!
    const sent = { ...claimed, status: "broadcast" as const, stage: "ready" as const, transaction: storedTransaction(txid) }
    expect(yield* repo.finish(terminalOutcome(sent, "succeeded", { actualFee: 6_428_500n, actualBandwidthFee: 0n }), "w1")).toBe(true)
    return { scope, task: task! }
  })

const world = Effect.gen(function*() {
  const sim = yield* startSimNode({
    genesisAccounts: [{ address: sender.address, trx: 100_000_000n, usdt: 5_000_000n }, { address: recipient.address, trx: 1_000_000n, usdt: 1n }]
  })
  const chain = yield* adapterFor(sim.url)
  const txid = yield* signAndBroadcast(sim.chain, yield* usdtTransfer(sim.chain, sender, recipient.address, 5_000_000n, 30_000_000n), sender)
  // Receipts are read from the solidified node: 20 blocks make the latest solidified.
  yield* sim.chain.mine(20)
  const storage = yield* Layer.build(MemoryStorageFixtures.layer.pipe(Layer.provideMerge(Memory.MemoryStorage)))
  return { chain, txid: txid as string, storage }
})

describe("booking fees", () => {
  it.scopedLive("books a settled task once from its receipt, counts it once, and a crash between reading and recording books it on the next pass", () =>
    Effect.gen(function*() {
      const w = yield* world
      const run = <A, E>(effect: Effect.Effect<A, E, any>) => effect.pipe(Effect.provide(w.storage), Effect.provide(Layer.succeed(Chain.Chain, w.chain))) as Effect.Effect<A, E>
      const { scope, task } = yield* run(settledTask(w.txid))
      const burnedBefore = yield* count(Fees.sweepEnergy("nile", "burned"))
      const savedBefore = yield* count(Fees.sweepFeeSavings("nile"))

      // The process dies after the receipt was read, before the entry is recorded.
      const crashing = Layer.effect(Fees.FeeLedger, Effect.map(Fees.FeeLedger, (ledger) => Fees.FeeLedger.of({ ...ledger, record: () => Effect.dieMessage("crash") })))
      const crashed = yield* Effect.exit(run(Fees.bookFees("nile", 10).pipe(Effect.provide(crashing))))
      expect(crashed._tag).toBe("Failure")
      expect(yield* run(Effect.flatMap(Fees.FeeLedger, (l) => l.list(scope, { since: new Date(0) }, 10)))).toEqual([])

      // Restarted: the pass books it; run again, nothing more.
      expect(yield* run(Fees.bookFees("nile", 10))).toBe(1)
      expect(yield* run(Fees.bookFees("nile", 10))).toBe(0)
      const entries = yield* run(Effect.flatMap(Fees.FeeLedger, (l) => l.list(scope, { since: new Date(0) }, 10)))
      expect(entries.length).toBe(1)
      expect(entries[0]).toMatchObject({
        taskId: task.id,
        txid: w.txid,
        energy: { own: 0n, delegated: 0n, rented: 0n, burned: 64_285n },
        networkEnergyFee: 6_428_500n,
        networkBandwidthFee: 0n,
        providerEnergyCost: 0n,
        providerActivationCost: 0n,
        energyPrice: 100n,
        burnEquivalent: 6_428_500n,
        saving: 0n
      })
      // Counted once, by the pass that stored it.
      expect((yield* count(Fees.sweepEnergy("nile", "burned"))) - burnedBefore).toBe(64_285n)
      expect((yield* count(Fees.sweepFeeSavings("nile"))) - savedBefore).toBe(0n)
    }))

  it.scopedLive("a task whose stake is still lent waits unbooked without holding back the tasks behind it", () =>
    Effect.gen(function*() {
      const w = yield* world
      const run = <A, E>(effect: Effect.Effect<A, E, any>) => effect.pipe(Effect.provide(w.storage), Effect.provide(Layer.succeed(Chain.Chain, w.chain))) as Effect.Effect<A, E>
      // The lower ID: a delegated sweep settled, its delegation not yet reclaimed.
      const lent = yield* run(settledTask("d".repeat(64), wallet(93).address))
      yield* run(Effect.flatMap(Delegation.DelegationLedger, (ledger) => ledger.plan({
        taskId: lent.task.id,
        network: "nile",
        owner: wallet(94).address,
        receiver: wallet(93).address,
        energy: 64_285n,
        balance: 6_429_000_000n,
        state: "planned",
        delegateTxid: "e".repeat(64),
        delegateExpiration: sweepTime(60),
        reclaimTxid: null,
        reclaimExpiration: null,
        createdAt: sweepTime(5),
        updatedAt: sweepTime(5)
      })))
      const behind = yield* run(settledTask(w.txid))
      // One task a page: the first page is the waiting task alone, the pass reads on past it.
      expect(yield* run(Fees.bookFees("nile", 1))).toBe(1)
      const booked = (scope: typeof lent.scope) => run(Effect.flatMap(Fees.FeeLedger, (l) => l.list(scope, { since: new Date(0) }, 10)))
      expect((yield* booked(behind.scope)).map((e) => e.taskId)).toEqual([behind.task.id])
      expect(yield* booked(lent.scope)).toEqual([])
    }))
})
