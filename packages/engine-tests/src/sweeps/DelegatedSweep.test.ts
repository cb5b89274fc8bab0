import { infoOf, sentBy, signAndBroadcast, trxTransfer, wallet } from "@collector/tron-sim/testing"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Exit, Option } from "effect"
import { Chain, Delegation, Fees, Sweeps } from "@collector/core"
import { eagerSweeperSettings, sweepDraftFor } from "@collector/core/testing"
import { Sim } from "../chain/testing/SimWorld.js"
import {
  createTask,
  pass,
  roundsUntilDone,
  seedScope,
  sentFrom,
  setResourceAccount,
  type SweepWallet,
  sweepWorldWith,
  taskOf,
  trx,
  usdt
} from "./testing/SweepWorld.js"

/*
 * Sweeps paid with energy lent from the operator's own stake, on the simulated node at mainnet
 * prices (100 SUN per energy; 180,000,000,000 energy over 18,000,000,000 staked TRX: 10 energy
 * per staked TRX, so `e` energy needs ceil(e / 10) whole TRX of stake).
 */

const rich = [6011, 6012, 6013, 6014, 6015, 6016, 6017]
const poor = [6021, 6022, 6023, 6024]
const richStake = trx(20_000n)
const poorStake = trx(100n)
const genesisAccounts = [
  ...rich.map((i) => ({ address: wallet(i).address, trx: trx(5n), stakedForEnergy: richStake })),
  ...poor.map((i) => ({ address: wallet(i).address, trx: trx(5n), stakedForEnergy: poorStake }))
]

/** Worked by hand from the mainnet ratio above: whole TRX rounded up, in SUN. */
const stakeFor = (energy: bigint) => ((energy + 9n) / 10n) * 1_000_000n

/** Activated with a single SUN and holding USDT: it cannot burn, so only lent or rented energy pays. */
const poorWallet = (w: SweepWallet) =>
  Effect.gen(function*() {
    const sim = yield* Sim
    yield* sim.chain.activate(w.address, 1n)
    yield* sim.chain.mintUsdt(w.address, usdt(30n))
    yield* sim.chain.mine(25)
    return w
  })

const trxWallet = (w: SweepWallet) =>
  Effect.gen(function*() {
    const sim = yield* Sim
    yield* sim.chain.activate(w.address, trx(20n))
    yield* sim.chain.mintUsdt(w.address, usdt(30n))
    yield* sim.chain.mine(25)
    return w
  })

const reclaimOnce = Effect.flatMap(Effect.provide(Delegation.ReclaimLoop, Delegation.ReclaimLoop.layer()), (loop) => loop.pass("nile"))
const rowOf = (id: Sweeps.SweepTaskId) => Effect.flatMap(Delegation.DelegationLedger, (ledger) => ledger.find(id))
const lent = (owner: string, receiver: string) => Effect.flatMap(Chain.Chain, (chain) => chain.lentEnergyStake({ owner, receiver }))
const trxOf = (address: string) => Effect.flatMap(Chain.Chain, (chain) => Effect.map(chain.account(address), (a) => a.trx))

/** Reclaim passes with a block between, until the ledger row is reclaimed (or `limit` rounds). */
const reclaimUntilDone = (id: Sweeps.SweepTaskId, limit = 40) =>
  Effect.gen(function*() {
    const sim = yield* Sim
    for (let round = 0; round < limit; round++) {
      yield* reclaimOnce
      if (Option.getOrThrow(yield* rowOf(id)).state === "reclaimed") return
      yield* sim.chain.mine(1)
    }
  })

layer(sweepWorldWith({ genesisAccounts }), { excludeTestServices: true, timeout: 300_000 })("sweeps paid with the own stake", (it) => {
  it.effect("a delegated sweep: lent exactly what the estimate lacks, no TRX burned, the stake reclaimed after settling", () =>
    Effect.gen(function*() {
      const scope = yield* seedScope(1, { rentalAllowed: false })
      const owner = yield* setResourceAccount(scope, rich[0]!)
      const w = yield* poorWallet(scope.wallets[0]!)
      const created = yield* createTask(scope, w)
      const { task, seen } = yield* roundsUntilDone(pass())(scope, created.id, 120)
      expect(task.status, `${task.reason} after ${seen.join(" -> ")}`).toBe("succeeded")
      expect(seen).toEqual(["pending/renting", "pending/waiting_energy", "ready/ready", "signed/ready", "broadcast/ready", "succeeded/ready"])
      const prepared = task.preparedEnergy!
      expect(task).toMatchObject({
        energyPath: "delegated",
        feeSource: "resources",
        estimatedWalletTrxFee: 0n,
        actualFee: 0n,
        rental: null,
        feeReason: `lending ${stakeFor(prepared)} SUN of the own stake for ${prepared} energy (${richStake} SUN can be lent)`
      })
      // Not one SUN of the wallet's TRX burned for energy.
      expect(yield* trxOf(w.address)).toBe(1n)
      expect(yield* sentFrom(w.address)).toEqual([task.transaction!.txid])
      expect(Option.getOrThrow(yield* rowOf(task.id))).toMatchObject({ owner: owner.address, receiver: w.address, energy: prepared, balance: stakeFor(prepared), state: "confirmed" })
      expect(yield* lent(owner.address, w.address)).toBe(stakeFor(prepared))

      yield* reclaimUntilDone(task.id)
      expect(Option.getOrThrow(yield* rowOf(task.id)).state).toBe("reclaimed")
      expect(yield* lent(owner.address, w.address)).toBe(0n)
      // One delegation and one reclaim, nothing more.
      expect((yield* Effect.flatMap(Sim, (sim) => sentBy(sim.chain, owner.address))).length).toBe(2)
    }))

  it.effect("the fee ledger books a delegated sweep once its stake is back, with what the resource account burned to lend it", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const scope = yield* seedScope(1, { rentalAllowed: false })
      const lender = wallet(rich[6]!)
      yield* setResourceAccount(scope, rich[6]!)
      // Three transfers of its own use up the account's 600 free bytes of the day: its delegation
      // and its reclaim then burn TRX for their bandwidth.
      for (const amount of [1n, 2n, 3n]) yield* signAndBroadcast(sim.chain, yield* trxTransfer(sim.chain, lender, wallet(rich[5]!).address, amount), lender)
      const w = yield* poorWallet(scope.wallets[0]!)
      const created = yield* createTask(scope, w)
      const { task } = yield* roundsUntilDone(pass())(scope, created.id, 120)
      expect(task.status, task.reason).toBe("succeeded")
      const entries = Effect.flatMap(Fees.FeeLedger, (ledger) => ledger.list(scope, { since: new Date(0) }, 10))
      // Settled, its receipt solidified, but the stake still lent: the reclaim's fee is not known yet.
      yield* sim.chain.mine(20)
      yield* Fees.bookFees("nile", 1_000)
      expect(yield* entries).toEqual([])

      yield* reclaimUntilDone(task.id)
      yield* sim.chain.mine(20)
      yield* Fees.bookFees("nile", 1_000)
      const row = Option.getOrThrow(yield* rowOf(task.id))
      // The chain's own record of the fees, read without the service's adapter.
      const lendingFee = (yield* infoOf(sim.chain, row.delegateTxid)).fee + (yield* infoOf(sim.chain, row.reclaimTxid!)).fee
      expect(lendingFee).toBeGreaterThan(0n)
      // Lent more than it used (the estimate's margin): all it used was lent.
      const used = (yield* infoOf(sim.chain, task.transaction!.txid)).receipt.energyUsageTotal
      const burnEquivalent = used * 100n
      expect(yield* entries).toMatchObject([{
        taskId: task.id,
        energy: { own: 0n, delegated: used, rented: 0n, burned: 0n },
        networkEnergyFee: 0n,
        lendingFee,
        burnEquivalent,
        saving: burnEquivalent - lendingFee
      }])
    }))

  it.effect("the waterfall through preparation: own energy first; a short stake goes by the tenant's policy (rent, burn, wait)", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      // Own energy: the wallet's delegated energy covers the transfer; the resource account lends nothing.
      const ownScope = yield* seedScope(1, { rentalAllowed: false })
      yield* setResourceAccount(ownScope, rich[1]!)
      const ownWallet = ownScope.wallets[0]!
      yield* sim.chain.activate(ownWallet.address, 1n)
      yield* sim.chain.mintUsdt(ownWallet.address, usdt(30n))
      yield* sim.chain.mine()
      yield* sim.chain.delegateEnergy(ownWallet.address, 200_000n)
      yield* sim.chain.mine(25)
      const own = yield* createTask(ownScope, ownWallet)
      yield* pass()
      const ownTask = (yield* taskOf(ownScope, own.id)).task
      expect(ownTask).toMatchObject({ status: "signed", energyPath: "own", feeSource: "resources", feeReason: `the wallet's own energy covers the ${ownTask.preparedEnergy} needed` })
      expect(yield* rowOf(own.id)).toEqual(Option.none())

      const short = (prepared: bigint) => `the own stake can lend ${poorStake} SUN, the transfer needs ${stakeFor(prepared)} SUN`

      // Rental allowed: rent.
      const rentScope = yield* seedScope(1, { rentalAllowed: true })
      yield* setResourceAccount(rentScope, poor[0]!)
      const rentCreated = yield* createTask(rentScope, yield* poorWallet(rentScope.wallets[0]!))
      yield* pass()
      const rented = (yield* taskOf(rentScope, rentCreated.id)).task
      expect(rented).toMatchObject({ status: "pending", stage: "renting", energyPath: "rented", feeSource: "rental" })
      expect(rented.feeReason).toBe(
        `${short(rented.preparedEnergy!)}; renting ${rented.preparedEnergy} energy from "sim" for ${rented.rental!.estimatedCost} SUN, the cheapest healthy quote within max_rental_cost`
      )

      // No rental, the wallet can burn within the cap: burn.
      const burnScope = yield* seedScope(1, { rentalAllowed: false })
      yield* setResourceAccount(burnScope, poor[1]!)
      const burnCreated = yield* createTask(burnScope, yield* trxWallet(burnScope.wallets[0]!))
      yield* pass()
      const burned = (yield* taskOf(burnScope, burnCreated.id)).task
      expect(burned).toMatchObject({ status: "signed", energyPath: "burn", feeSource: "wallet_trx", estimatedWalletTrxFee: burned.preparedEnergy! * 100n })
      expect(burned.feeReason).toBe(`${short(burned.preparedEnergy!)}; burning ${burned.preparedEnergy! * 100n} SUN of the wallet's TRX, within max_wallet_trx_fee 15000000`)

      // Neither: the task waits, pending and queued, to be looked at again (and cancelled at its prepareBy).
      const waitScope = yield* seedScope(1, { rentalAllowed: false })
      yield* setResourceAccount(waitScope, poor[2]!)
      const waitCreated = yield* createTask(waitScope, yield* poorWallet(waitScope.wallets[0]!))
      yield* pass()
      const waiting = (yield* taskOf(waitScope, waitCreated.id)).task
      expect(waiting).toMatchObject({ status: "pending", stage: "queued", energyPath: null, rental: null })
      expect(waiting.reason).toBe(`${short(waiting.preparedEnergy!)}: waiting for it, as the tenant's policy says`)
      expect(waiting.nextStepAt.getTime()).toBeGreaterThan(waiting.updatedAt.getTime() - 1)
      // A waiting task is cancelled by its existing preparation limit.
      const soonScope = yield* seedScope(1, { rentalAllowed: false })
      yield* setResourceAccount(soonScope, poor[3]!)
      const soonWallet = yield* poorWallet(soonScope.wallets[0]!)
      const insertedAt = new Date()
      const [soon] = yield* Effect.flatMap(Sweeps.SweepRepository, (repo) =>
        repo.insert(soonScope, [sweepDraftFor(soonWallet, { mode: "all", requestedAmount: null, destination: soonScope.destination, prepareBy: new Date(insertedAt.getTime() + 1_500) })], insertedAt))
      yield* pass()
      expect((yield* taskOf(soonScope, soon!.id)).task).toMatchObject({ status: "pending", stage: "queued" })
      yield* Effect.sleep(Duration.millis(1_600))
      yield* pass()
      const cancelled = (yield* taskOf(soonScope, soon!.id)).task
      expect(cancelled.status).toBe("cancelled")
      expect(cancelled.reason).toBe(
        `preparation gave up after its time limit (${soon!.prepareBy.toISOString()}): ${short(cancelled.preparedEnergy!)}: waiting for it, as the tenant's policy says`
      )
      // Nothing was lent for any of them.
      for (const id of [rentCreated.id, burnCreated.id, waitCreated.id, soon!.id]) expect(yield* rowOf(id)).toEqual(Option.none())
      for (const i of poor) expect((yield* sentBy(sim.chain, wallet(i).address)).length).toBe(0)
    }))

  it.effect("a crash at each point of a delegated sweep: never a second delegation, the sweep sent once, the stake reclaimed", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      // before:X: the step ran (delegation broadcast, confirmed, sweep signed, broadcast, settled), its result was never saved.
      const points = ["before:pending/waiting_energy", "before:ready/ready", "before:signed/ready", "before:broadcast/ready", "before:succeeded/ready"]
      for (const [i, point] of points.entries()) {
        const scope = yield* seedScope(1, { rentalAllowed: false })
        const owner = yield* setResourceAccount(scope, rich[i + 1]!)
        const w = yield* poorWallet(scope.wallets[0]!)
        const created = yield* createTask(scope, w)
        // A short lease: the dead worker's claim runs out and the next worker takes the task as it was stored.
        const dying = pass(`dying-${i}`, { ...eagerSweeperSettings, leaseTtl: Duration.millis(300) }, (at) => (at === point ? Effect.dieMessage(`died at ${at}`) : Effect.void))
        let died = false
        const dyingSeen: Array<string> = []
        for (let round = 0; round < 120 && !died; round++) {
          died = Exit.isFailure(yield* Effect.exit(dying))
          // A reclaim pass while the task is unfinished never takes its energy away.
          yield* reclaimOnce
          if (!died) yield* sim.chain.mine(1)
          const t = (yield* taskOf(scope, created.id)).task
          const st = `${t.status}/${t.stage}${t.reason === "" ? "" : ` (${t.reason})`}`
          if (dyingSeen[dyingSeen.length - 1] !== st) dyingSeen.push(st)
        }
        expect(died, `${point}: ${dyingSeen.join(" -> ")}`).toBe(true)
        yield* Effect.sleep(Duration.millis(350))
        const seen: Array<string> = []
        for (let round = 0; round < 120; round++) {
          yield* pass(`next-${i}`)
          yield* reclaimOnce
          const now = (yield* taskOf(scope, created.id)).task
          const state = `${now.status}/${now.stage}${now.reason === "" ? "" : ` (${now.reason})`}`
          if (seen[seen.length - 1] !== state) seen.push(state)
          if (now.status === "succeeded" || now.status === "failed" || now.status === "cancelled") break
          yield* sim.chain.mine(1)
        }
        const { task } = yield* taskOf(scope, created.id)
        expect(task.status, `${point}: ${task.reason} after ${seen.join(" -> ")}`).toBe("succeeded")
        expect(task.energyPath, point).toBe("delegated")
        expect(yield* sentFrom(w.address), point).toEqual([task.transaction!.txid])
        expect(yield* trxOf(w.address), point).toBe(1n)
        // A crash between settlement and reclaim, and a restart in the middle of it: a new loop each pass.
        yield* reclaimUntilDone(task.id)
        expect(Option.getOrThrow(yield* rowOf(task.id)).state, point).toBe("reclaimed")
        expect(yield* lent(owner.address, w.address), point).toBe(0n)
        expect((yield* sentBy(sim.chain, owner.address)).length, `${point}: one delegation, one reclaim`).toBe(2)
      }
    }), { timeout: 600_000 })
})
