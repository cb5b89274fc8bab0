import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { Chain, Sweeps } from "@collector/core"
import { eagerSweeperSettings } from "@collector/core/testing"
import { createTask, noProvider, pass, reportOf, runUntilDone, seedScope, sentFrom, Sim, type SweepScope, sweepWorld, taskOf } from "./testing/SweepHarness.js"

const usdt = (whole: bigint) => whole * 1_000_000n
const trx = (whole: bigint) => whole * 1_000_000n

const eventOf = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ event_type: string; payload: string }>`SELECT event_type, payload FROM events WHERE id = ${id}`).pipe(
    Effect.orDie,
    Effect.map((rows) => rows[0])
  )

const walletRow = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ collected_usdt: string; last_collected_at: Date | null }>`SELECT collected_usdt::text, last_collected_at FROM wallets WHERE id = ${id}`).pipe(
    Effect.orDie,
    Effect.map((rows) => rows[0]!)
  )

/** A wallet paying with its own (delegated) energy. */
const ownEnergyWallet = (scope: SweepScope, amount = usdt(10n)) =>
  Effect.gen(function*() {
    const sim = yield* Sim
    const w = scope.wallets[0]!
    yield* sim.chain.activate(w.address, trx(1n))
    yield* sim.chain.mintUsdt(w.address, amount)
    yield* sim.chain.mine(1)
    yield* sim.chain.delegateEnergy(w.address, 200_000n)
    yield* sim.chain.mine(25)
    return w
  })

layer(sweepWorld(noProvider), { excludeTestServices: true, timeout: 120_000 })("sweeper against the simulated node", (it) => {
  it.effect("own energy: prepared with the margin, signed, broadcast and settled; the event and the wallet's total follow", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const scope = yield* seedScope(1, { rentalAllowed: false })
      const w = scope.wallets[0]!
      yield* sim.chain.activate(w.address, trx(1n))
      yield* sim.chain.mintUsdt(w.address, usdt(25n))
      yield* sim.chain.mine(1)
      yield* sim.chain.delegateEnergy(w.address, 200_000n)
      yield* sim.chain.mine(25)
      const created = yield* createTask(scope, w)
      const { task, seen } = yield* runUntilDone(scope, created.id)
      expect(task.status, `${task.reason} after ${seen.join(" -> ")}`).toBe("succeeded")
      // Prepared and signed in one step: with its own energy in place a task is saved first as signed.
      expect(seen).toEqual(["signed/ready", "broadcast/ready", "succeeded/ready"])
      expect(task.amount).toBe(usdt(25n))
      expect(task.feeSource).toBe("resources")
      expect(task.preparedEnergy! > 0n).toBe(true)
      expect(task.estimatedWalletTrxFee).toBe(0n)
      expect(task.actualFee).toBe(0n)
      expect(task.actualBandwidthFee).toBe(0n)
      expect(task.feeWarning).toBeNull()
      expect(task.transaction!.txid).toMatch(/^[0-9a-f]{64}$/)
      const event = yield* eventOf(task.id)
      expect(event!.event_type).toBe("sweep.succeeded")
      expect(JSON.parse(event!.payload)).toEqual({
        event_id: task.id,
        event_type: "sweep.succeeded",
        network: "nile",
        task_id: task.id,
        wallet_id: w.walletId,
        amount: "25000000",
        destination: scope.destination,
        txid: task.transaction!.txid,
        status: "succeeded",
        reason: "",
        actual_fee: "0"
      })
      const row = yield* walletRow(w.walletId)
      expect(row.collected_usdt).toBe("25000000")
      expect(row.last_collected_at).not.toBeNull()
    }))

  it.effect("wallet TRX pays the whole shortfall within the cap; the burned fee is the actual fee", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const scope = yield* seedScope(1, { rentalAllowed: false })
      const w = scope.wallets[0]!
      yield* sim.chain.activate(w.address, trx(20n))
      yield* sim.chain.mintUsdt(w.address, usdt(7n))
      yield* sim.chain.mine(25)
      const created = yield* createTask(scope, w, usdt(3n))
      const { task, seen } = yield* runUntilDone(scope, created.id)
      expect(task.status, `${task.reason} after ${seen.join(" -> ")}`).toBe("succeeded")
      expect(task.feeSource).toBe("wallet_trx")
      expect(task.amount).toBe(usdt(3n))
      expect(task.estimatedWalletTrxFee! > 0n).toBe(true)
      expect(task.actualFee > 0n).toBe(true)
      expect(task.actualFee <= task.estimatedWalletTrxFee!).toBe(true)
    }))

  it.effect("nothing to collect is cancelled; a fixed amount above the balance fails; neither signs anything", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const scope = yield* seedScope(2, { rentalAllowed: false })
      const [empty, small] = scope.wallets
      yield* sim.chain.activate(small!.address, trx(20n))
      yield* sim.chain.mintUsdt(small!.address, usdt(1n))
      yield* sim.chain.mine(25)
      const a = yield* createTask(scope, empty!)
      const b = yield* createTask(scope, small!, usdt(2n))
      yield* pass()
      const cancelled = yield* taskOf(scope, a.id)
      const failed = yield* taskOf(scope, b.id)
      expect(cancelled).toMatchObject({ status: "cancelled", amount: 0n, transaction: null })
      expect(cancelled.reason).toContain("nothing to collect")
      expect(failed).toMatchObject({ status: "failed", transaction: null })
      expect(failed.reason).toContain("above the balance")
      expect((yield* eventOf(a.id))!.event_type).toBe("sweep.cancelled")
      expect(JSON.parse((yield* eventOf(b.id))!.payload)).toMatchObject({ status: "failed", txid: "", amount: "0", actual_fee: "0" })
    }))

  it.effect("no energy, not enough TRX and no rental: failed with the reason, before anything is signed", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const scope = yield* seedScope(1, { rentalAllowed: false })
      const w = scope.wallets[0]!
      yield* sim.chain.activate(w.address, trx(1n))
      yield* sim.chain.mintUsdt(w.address, usdt(5n))
      yield* sim.chain.mine(25)
      const created = yield* createTask(scope, w)
      yield* pass()
      const task = yield* taskOf(scope, created.id)
      expect(task.status).toBe("failed")
      expect(task.reason).toContain("energy rental is not allowed")
      expect(task.transaction).toBeNull()
    }))

  it.effect("a node that does not answer: the claimed tasks are handed back unchanged and go on once it is back", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const scope = yield* seedScope(1, { rentalAllowed: false })
      const w = yield* ownEnergyWallet(scope)
      const created = yield* createTask(scope, w)
      yield* sim.chain.fail("error", 1_000)
      const summary = yield* pass()
      expect(summary).toMatchObject({ claimed: 1, failed: 1 })
      const after = yield* taskOf(scope, created.id)
      expect(after).toMatchObject({ status: "pending", stage: "queued", version: 1, transaction: null })
      yield* Effect.sleep("1100 millis")
      const { task } = yield* runUntilDone(scope, created.id)
      expect(task.status).toBe("succeeded")
    }))

  it.effect("a node that keeps no transaction history: the sweeper says so and claims nothing, since no sweep could be settled", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const scope = yield* seedScope(1, { rentalAllowed: false })
      const w = yield* ownEnergyWallet(scope)
      yield* sim.chain.mintUsdt(scope.destination, usdt(1n))
      yield* sim.chain.mine(25)
      const created = yield* createTask(scope, w)
      const chain = yield* Chain.Chain
      const historyless = Chain.Chain.of({ ...chain, receipt: () => Effect.succeedNone })
      const sweeper = yield* Effect.provide(Sweeps.Sweeper, Sweeps.Sweeper.layer(eagerSweeperSettings)).pipe(Effect.provideService(Chain.Chain, historyless))
      const running = yield* Effect.fork(sweeper.run("nile", "w-history"))
      yield* Effect.sleep("500 millis")
      yield* Fiber.interrupt(running)
      const report = (yield* reportOf).find((r) => r.component === "sweeper")
      expect(report).toMatchObject({ status: "stopped" })
      expect(report!.detail).toContain("keeps no transaction history")
      expect(yield* taskOf(scope, created.id)).toMatchObject({ status: "pending", stage: "queued", version: 0 })
    }))

  it.effect("a broadcast the network loses is offered again, byte for byte, and lands once", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const scope = yield* seedScope(1, { rentalAllowed: false })
      const w = yield* ownEnergyWallet(scope)
      yield* sim.chain.dropNextBroadcast(2)
      const created = yield* createTask(scope, w)
      const { task, seen } = yield* runUntilDone(scope, created.id)
      expect(task.status, `${task.reason} after ${seen.join(" -> ")}`).toBe("succeeded")
      expect(yield* sentFrom(w.address)).toEqual([task.transaction!.txid])
    }))

  it.effect("a broadcast held back by the network: the task waits in broadcast and settles when it lands", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const scope = yield* seedScope(1, { rentalAllowed: false })
      const w = yield* ownEnergyWallet(scope)
      yield* sim.chain.delayNextBroadcast(8)
      const created = yield* createTask(scope, w)
      const { task, seen } = yield* runUntilDone(scope, created.id)
      expect(task.status, `${task.reason} after ${seen.join(" -> ")}`).toBe("succeeded")
      expect(yield* sentFrom(w.address)).toEqual([task.transaction!.txid])
    }))

  it.effect("the same signed transaction broadcast by someone else first: the duplicate answer counts as accepted; one transfer", () =>
    Effect.gen(function*() {
      const scope = yield* seedScope(1, { rentalAllowed: false })
      const w = yield* ownEnergyWallet(scope)
      const created = yield* createTask(scope, w)
      yield* pass()
      const signed = yield* taskOf(scope, created.id)
      expect(signed.status).toBe("signed")
      const chain = yield* Chain.Chain
      expect(yield* chain.broadcast(Sweeps.signedTransaction(signed.transaction!))).toEqual({ _tag: "Accepted" })
      const { task } = yield* runUntilDone(scope, created.id)
      expect(task.status).toBe("succeeded")
      expect(yield* sentFrom(w.address)).toEqual([signed.transaction!.txid])
    }))

  it.effect("energy gone between signing and landing: the receipt's OUT_OF_ENERGY fails the task with its fee", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const scope = yield* seedScope(1, { rentalAllowed: false })
      const w = yield* ownEnergyWallet(scope)
      const created = yield* createTask(scope, w)
      yield* pass()
      expect((yield* taskOf(scope, created.id)).status).toBe("signed")
      yield* sim.chain.undelegateEnergy(w.address, 200_000n)
      yield* sim.chain.mine(1)
      const { task, seen } = yield* runUntilDone(scope, created.id)
      expect(task.status, seen.join(" -> ")).toBe("failed")
      expect(task.reason).toBe("OUT_OF_ENERGY")
      expect(task.actualFee).toBe(trx(1n))
      expect(yield* sentFrom(w.address)).toEqual([task.transaction!.txid])
    }))
})

// Its own simulator: the broadcasts it loses stay lost for whatever comes after.
layer(sweepWorld(noProvider), { excludeTestServices: true, timeout: 120_000 })("sweeper with a network that loses everything", (it) => {
  it.effect("a transaction that never lands fails only once the solidified chain is past its expiration; it is never re-signed", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const scope = yield* seedScope(1, { rentalAllowed: false })
      const w = yield* ownEnergyWallet(scope)
      yield* sim.chain.dropNextBroadcast(1000)
      const created = yield* createTask(scope, w)
      const { task, seen } = yield* runUntilDone(scope, created.id, 120)
      expect(task.status, seen.join(" -> ")).toBe("failed")
      expect(task.reason).toContain("without landing")
      const solidified = yield* Effect.flatMap(Chain.Chain, (c) => c.solidifiedBlock)
      expect(solidified.timestamp.getTime()).toBeGreaterThan(task.transaction!.expiration.getTime())
      expect(yield* sentFrom(w.address)).toEqual([])
    }))
})
