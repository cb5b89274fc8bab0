import { Chain } from "@collector/core"
import { usdtTransfer, wallet, signAndBroadcast } from "@collector/tron-sim/testing"
import { expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { createTask, noProvider, pass, runUntilDone, seedScope, sentFrom, Sim, sweepWorld, taskOf } from "./testing/SweepHarness.js"

const usdt = (whole: bigint) => whole * 1_000_000n
const trx = (whole: bigint) => whole * 1_000_000n

// Under the TestClock: the simulator's free bandwidth regenerates over 24 hours of its Clock.
it.scoped("a wallet without free bandwidth waits (never burns TRX for it) and goes on once it has regenerated", () =>
  Effect.gen(function*() {
    yield* TestClock.adjust("1000 days")
    const sim = yield* Sim
    const scope = yield* seedScope(1, { rentalAllowed: false })
    const w = scope.wallets[0]!
    yield* sim.chain.activate(w.address, trx(30n))
    yield* sim.chain.mintUsdt(w.address, usdt(20n))
    yield* sim.chain.mine(1)
    yield* sim.chain.delegateEnergy(w.address, 300_000n)
    yield* sim.chain.mine(1)
    // The wallet's own earlier transfer takes 345 of its 600 free bytes for the day.
    const own = wallet(w.index)
    yield* signAndBroadcast(sim.chain, yield* usdtTransfer(sim.chain, own, wallet(1).address, usdt(1n), trx(20n)), own)
    yield* sim.chain.mine(25)
    const before = (yield* (yield* Chain.Chain).account(w.address)).trx

    const created = yield* createTask(scope, w)
    yield* pass()
    const waiting = yield* taskOf(scope, created.id)
    expect(waiting).toMatchObject({ status: "pending", stage: "waiting_bandwidth", amount: usdt(19n), transaction: null })
    expect(waiting.reason).toContain("waiting for free bandwidth")
    yield* TestClock.adjust("6 hours")
    yield* sim.chain.mine(1)
    yield* pass()
    expect((yield* taskOf(scope, created.id)).stage).toBe("waiting_bandwidth")

    yield* TestClock.adjust("20 hours")
    yield* sim.chain.mine(1)
    const { task, seen } = yield* runUntilDone(scope, created.id)
    expect(task.status, `${task.reason} after ${seen.join(" -> ")}`).toBe("succeeded")
    expect(task.actualBandwidthFee).toBe(0n)
    expect(task.feeWarning).toBeNull()
    expect((yield* (yield* Chain.Chain).account(w.address)).trx).toBe(before)
    expect(yield* sentFrom(w.address)).toHaveLength(2)
  }).pipe(Effect.provide(sweepWorld(noProvider))), 60_000)
