import { wallet } from "@collector/tron-sim/testing"
import { expect, layer } from "@effect/vitest"
import { Effect, Metric, Option } from "effect"
import { Chain, Memory, Scanning, Sweeps } from "@collector/core"
import { Sim } from "../chain/testing/SimWorld.js"
import { createTask, pass, runUntilDone, seedScope, sentFrom, SweepWorld, type SweepWallet, taskOf, trx, usdt } from "./testing/SweepWorld.js"

/*
 * Sweep reconciliation by txid, on the simulated node over memory storage: the scanner finds
 * USDT leaving our wallets, and the sweeper's pass gives a sweep whose record was lost its txid
 * back, or reports a transfer no task made. The oracle is the chain: what left the wallet.
 */

/** Enough TRX of its own to burn for the energy, and USDT to sweep. */
const fundedWallet = (w: SweepWallet, amount: bigint) =>
  Effect.gen(function*() {
    const sim = yield* Sim
    yield* sim.chain.activate(w.address, trx(20n))
    yield* sim.chain.mintUsdt(w.address, amount)
    yield* sim.chain.mine(25)
    return w
  })

/** Scans the simulated chain up to its head; a first scan starts at the head, before anything the test does. */
const scan = Effect.gen(function*() {
  const head = yield* Effect.orDie(Effect.flatMap(Chain.Chain, (chain) => chain.headBlock))
  const scanner = yield* Effect.provide(Scanning.Scanner, Scanning.Scanner.layer({ batchBlocks: 20, fetchConcurrency: 2, startBlock: head.number }))
  return yield* Effect.orDie(scanner.scan("nile", 1000))
})

const openOutflows = Effect.flatMap(Scanning.ScanLedger, (ledger) => ledger.openOutflows("nile", 100))

/** The scanner's cursor goes back `blocks` blocks, as after a lost write or a reorganisation. */
const rewindBy = (blocks: bigint) =>
  Effect.gen(function*() {
    const ledger = yield* Scanning.ScanLedger
    const cursor = Option.getOrThrow(yield* ledger.cursor("nile"))
    const below = Option.getOrThrow(yield* ledger.storedBlock("nile", cursor.number - blocks))
    yield* Effect.orDie(ledger.rewind("nile", cursor, { number: below.number, hash: below.hash }))
  })

/** The task's stored row as it is now, to be written back later as a failover that lost the writes after it would. */
const rowOf = (id: Sweeps.SweepTaskId) =>
  Effect.flatMap(Memory.MemoryDatabase, (db) => db.atomically(() => ({ ...db.table(Memory.MemoryTables.sweepTasks).get(id)! })))

const writeBack = (row: Effect.Effect.Success<ReturnType<typeof rowOf>>) =>
  Effect.flatMap(Memory.MemoryDatabase, (db) => db.atomically(() => db.table(Memory.MemoryTables.sweepTasks).put(row.id, row)))

/** The reconciliation alone, as a sweeper's pass runs it first (the pass would also step the waiting task). */
const reconcile = Sweeps.reconcileOutflows("nile", "w1")

const reported = Effect.map(Metric.value(Sweeps.unaccountedOutflows("nile")), (state) => state.count)

layer(SweepWorld, { excludeTestServices: true, timeout: 120_000 })("sweep reconciliation by txid", (it) => {
  it.effect("a broadcast sweep whose record is rolled back to pending gets its txid back and succeeds once: one transfer left the wallet", () =>
    Effect.gen(function*() {
      yield* scan
      const scope = yield* seedScope(1, { rentalAllowed: false })
      const w = yield* fundedWallet(scope.wallets[0]!, usdt(30n))
      const created = yield* createTask(scope, w)
      const before = yield* rowOf(created.id)
      const sim = yield* Sim
      // Passes until the transfer is broadcast, then a block for it to land in.
      for (let round = 0; round < 10 && (yield* taskOf(scope, created.id)).task.status !== "broadcast"; round++) {
        yield* pass()
        yield* sim.chain.mine(1)
      }
      yield* sim.chain.mine(1)
      const first = (yield* taskOf(scope, created.id)).task
      expect(first.status).toBe("broadcast")
      expect(yield* sentFrom(w.address)).toEqual([first.transaction!.txid])
      // A sweep whose record is intact is no outflow.
      yield* scan
      expect(yield* openOutflows).toEqual([])
      // The failover: the database comes back with the task as it was before it was signed, and
      // with the scanner's cursor from before the transfer's block.
      yield* writeBack(before)
      yield* rewindBy(3n)
      expect((yield* taskOf(scope, created.id)).task).toMatchObject({ status: "pending", transaction: null })
      const reportedBefore = yield* reported
      yield* scan
      const [outflow, ...others] = yield* openOutflows
      expect(others).toEqual([])
      expect(outflow).toMatchObject({ state: "open", transfer: { txid: first.transaction!.txid, from: w.address, to: scope.destination, amount: usdt(30n) } })
      const { task, webhook, seen } = yield* runUntilDone(scope, created.id)
      expect(task.status, `${task.reason} after ${seen.join(" -> ")}`).toBe("succeeded")
      expect(seen[0]).toBe("broadcast/ready")
      expect(task.transaction!.txid).toBe(first.transaction!.txid)
      expect(task.amount).toBe(usdt(30n))
      expect(webhook).toMatchObject({ id: task.id, eventType: "sweep.succeeded" })
      expect(JSON.parse(webhook!.payload)).toMatchObject({ status: "succeeded", txid: first.transaction!.txid, amount: "30000000" })
      // The chain's word: exactly one transfer left the wallet, no second one was signed.
      expect(yield* sentFrom(w.address)).toEqual([first.transaction!.txid])
      expect(yield* openOutflows).toEqual([])
      expect(yield* reported).toBe(reportedBefore)
      // Scanning on stores nothing again and finds nothing new.
      yield* sim.chain.mine(3)
      yield* scan
      expect(yield* openOutflows).toEqual([])
    }))

  it.effect("USDT moved out of a wallet by its key outside the service is reported and counted once, never given to a task", () =>
    Effect.gen(function*() {
      yield* scan
      const scope = yield* seedScope(1, { rentalAllowed: false })
      const w = yield* fundedWallet(scope.wallets[0]!, usdt(30n))
      // A fixed task of 10 USDT to the collection address waits (never stepped here).
      const created = yield* createTask(scope, w, usdt(10n))
      const sim = yield* Sim
      const stranger = wallet(9999).address
      // Two transfers signed with the wallet's key, not by the service: to a stranger, and 5 USDT
      // to the collection address (not the 10 the task asks for).
      const foreign = [
        yield* sim.chain.transferUsdt({ from: w.address, to: stranger, amount: usdt(5n) }),
        yield* sim.chain.transferUsdt({ from: w.address, to: scope.destination, amount: usdt(5n) })
      ]
      yield* sim.chain.mine(1)
      const reportedBefore = yield* reported
      yield* scan
      expect((yield* openOutflows).map((o) => o.transfer.txid).sort()).toEqual([...foreign].sort())
      yield* reconcile
      yield* reconcile
      expect(yield* openOutflows).toEqual([])
      expect(yield* reported).toBe(reportedBefore + 2)
      expect((yield* taskOf(scope, created.id)).task).toMatchObject({ status: "pending", transaction: null, version: created.version })
      // Re-scanning the block (a rewind to before it) stores nothing twice and reports nothing again.
      yield* rewindBy(3n)
      yield* scan
      expect(yield* openOutflows).toEqual([])
      yield* reconcile
      expect(yield* reported).toBe(reportedBefore + 2)
    }))
})
