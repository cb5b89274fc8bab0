import { usdtOf } from "@collector/tron-sim/testing"
import { TronAddress } from "@collector/tron"
import { expect, layer } from "@effect/vitest"
import { Clock, Deferred, Duration, Effect, Exit, Fiber, Option, Ref, TestClock, TestContext } from "effect"
import { Chain, Settings, Sweeps, Wallets } from "@collector/core"
import { eagerSweeperSettings, StorageFixtures } from "@collector/core/testing"
import { Sim } from "../chain/testing/SimWorld.js"
import { type DatabaseState, flakySweepRepository } from "./testing/FlakySweepRepository.js"
import {
  createTask,
  ordersFor,
  pass,
  roundsUntilDone,
  runUntilDone,
  seedScope,
  sentFrom,
  sweeperReport,
  SweepWorld,
  type SweepWallet,
  taskOf,
  trx,
  usdt
} from "./testing/SweepWorld.js"

/** Activated with a single SUN and holding USDT: only a rental can pay the transfer's energy. */
const rentalWallet = (w: SweepWallet, amount = usdt(30n)) =>
  Effect.gen(function*() {
    const sim = yield* Sim
    yield* sim.chain.activate(w.address, 1n)
    yield* sim.chain.mintUsdt(w.address, amount)
    // Preparation reads the balance at the solidified block.
    yield* sim.chain.mine(25)
    return w
  })

/** Enough TRX of its own to burn for the energy, no rental. */
const trxWallet = (w: SweepWallet, amount: bigint) =>
  Effect.gen(function*() {
    const sim = yield* Sim
    yield* sim.chain.activate(w.address, trx(20n))
    yield* sim.chain.mintUsdt(w.address, amount)
    yield* sim.chain.mine(25)
    return w
  })

const usdtAt = (address: string) => Effect.flatMap(Sim, (sim) => usdtOf(sim.chain, Option.getOrThrow(TronAddress.toHex(address))))

const booksOf = (w: SweepWallet) => Effect.flatMap(StorageFixtures, (fixtures) => fixtures.sweptWalletBooks(w.id))

/** On a test clock set to the real time (the simulated chain's blocks carry it): what passes is what the test moves. */
const onTestClock = <A, E, R>(body: Effect.Effect<A, E, R>) =>
  Effect.provide(Effect.zipRight(Effect.flatMap(Effect.sync(() => Date.now()), TestClock.setTime), body), TestContext.TestContext)

/**
 * One sweeper (as an engine keeps one) over a database that goes away as `outage` says during a
 * pass of a trx-paid sweep, and answers again a second later: how long after the failed pass the
 * task was stepped again, by the same sweeper's next pass, while the 60 s lease still ran.
 */
const afterOutage = (outage: DatabaseState) =>
  onTestClock(Effect.gen(function*() {
    const scope = yield* seedScope(1, { rentalAllowed: false })
    const w = yield* trxWallet(scope.wallets[0]!, usdt(3n))
    const created = yield* createTask(scope, w)
    const { repo, state } = yield* flakySweepRepository
    const settings = { ...eagerSweeperSettings, leaseTtl: Duration.seconds(60) }
    const sweeper = yield* Effect.provide(Sweeps.Sweeper, Sweeps.Sweeper.layer(settings)).pipe(Effect.provideService(Sweeps.SweepRepository, repo))
    yield* Ref.set(state, outage)
    const failedAt = yield* Clock.currentTimeMillis
    expect(Exit.isFailure(yield* Effect.exit(sweeper.pass("nile", "w-outage")))).toBe(true)
    // Nothing of the abandoned step was stored; the claim still holds the task.
    expect((yield* taskOf(scope, created.id)).task).toEqual(created)
    yield* TestClock.adjust("1 second")
    yield* Ref.set(state, "up")
    const summary = yield* sweeper.pass("nile", "w-outage")
    const steppedAfter = (yield* Clock.currentTimeMillis) - failedAt
    const stepped = (yield* taskOf(scope, created.id)).task
    const { task, seen } = yield* roundsUntilDone(sweeper.pass("nile", "w-outage"))(scope, created.id)
    return { summary, steppedAfter, stepped, task, seen, sent: yield* sentFrom(w.address) }
  }))

layer(SweepWorld, { excludeTestServices: true, timeout: 120_000 })("the sweeper and its steps on the simulated node", (it) => {
  it.effect("a rented sweep of an activated wallet to an empty collection address: one order, one transaction, one event, the wallet's collected total", () =>
    Effect.gen(function*() {
      const scope = yield* seedScope(1, { rentalAllowed: true })
      const w = yield* rentalWallet(scope.wallets[0]!)
      const created = yield* createTask(scope, w)
      const { task, webhook, seen } = yield* runUntilDone(scope, created.id)
      expect(task.status, `${task.reason} after ${seen.join(" -> ")}`).toBe("succeeded")
      expect(seen).toEqual(["pending/renting", "pending/waiting_energy", "ready/ready", "signed/ready", "broadcast/ready", "succeeded/ready"])
      expect(task).toMatchObject({ amount: usdt(30n), feeSource: "rental", estimatedWalletTrxFee: 0n, actualFee: 0n, feeWarning: null })
      expect(task.rental).toMatchObject({ orderId: `sweep-nile-${task.id}`, provider: "sim", state: "delivered", quantity: task.preparedEnergy })
      expect(yield* ordersFor(w.address)).toHaveLength(1)
      expect(yield* sentFrom(w.address)).toEqual([task.transaction!.txid])
      expect(yield* usdtAt(scope.destination)).toBe(usdt(30n))
      expect(yield* usdtAt(w.address)).toBe(0n)
      // One event, under the task's own ID, and the wallet's books.
      expect(webhook).toMatchObject({ id: task.id, eventType: "sweep.succeeded", status: "pending", createdAt: task.updatedAt })
      expect(JSON.parse(webhook!.payload)).toEqual({
        event_id: task.id,
        event_type: "sweep.succeeded",
        network: "nile",
        task_id: task.id,
        wallet_id: w.id,
        amount: "30000000",
        destination: scope.destination,
        txid: task.transaction!.txid,
        status: "succeeded",
        reason: "",
        actual_fee: "0"
      })
      expect(yield* booksOf(w)).toEqual({ collectedUsdt: usdt(30n), lastCollectedAt: task.updatedAt, balanceStaleFrom: 1n })
    }))

  it.effect("a fixed amount: exactly that much moves, paid with the wallet's TRX within the cap; the rest stays", () =>
    Effect.gen(function*() {
      const scope = yield* seedScope(1, { rentalAllowed: false })
      const w = yield* trxWallet(scope.wallets[0]!, usdt(7n))
      const created = yield* createTask(scope, w, usdt(3n))
      const { task, seen } = yield* runUntilDone(scope, created.id)
      expect(task.status, `${task.reason} after ${seen.join(" -> ")}`).toBe("succeeded")
      expect(task).toMatchObject({ mode: "fixed", requestedAmount: usdt(3n), amount: usdt(3n), feeSource: "wallet_trx", rental: null })
      expect(task.actualFee > 0n && task.actualFee <= task.estimatedWalletTrxFee!).toBe(true)
      expect(yield* usdtAt(w.address)).toBe(usdt(4n))
      expect(yield* usdtAt(scope.destination)).toBe(usdt(3n))
      expect((yield* booksOf(w)).collectedUsdt).toBe(usdt(3n))
    }))

  it.effect("nothing to collect is cancelled and a fixed amount above the balance fails, both without signing or ordering", () =>
    Effect.gen(function*() {
      const scope = yield* seedScope(2, { rentalAllowed: true })
      const empty = scope.wallets[0]!
      const small = yield* rentalWallet(scope.wallets[1]!, usdt(1n))
      const a = yield* createTask(scope, empty)
      const b = yield* createTask(scope, small, usdt(2n))
      expect(yield* pass()).toMatchObject({ claimed: 2, saved: 2, lost: 0, failed: 0 })
      const cancelled = yield* taskOf(scope, a.id)
      const failed = yield* taskOf(scope, b.id)
      expect(cancelled.task).toMatchObject({ status: "cancelled", amount: 0n, transaction: null })
      expect(cancelled.task.reason).toContain("nothing to collect")
      expect(cancelled.webhook?.eventType).toBe("sweep.cancelled")
      expect(failed.task).toMatchObject({ status: "failed", transaction: null, rental: null })
      expect(failed.task.reason).toContain("above the balance")
      expect(JSON.parse(failed.webhook!.payload)).toMatchObject({ status: "failed", txid: "", amount: "0", actual_fee: "0" })
      expect([...(yield* ordersFor(small.address)), ...(yield* sentFrom(small.address))]).toEqual([])
      expect(yield* booksOf(small)).toEqual({ collectedUsdt: 0n, lastCollectedAt: null, balanceStaleFrom: null })
    }))

  it.effect("a wallet the USDT issuer froze: the task fails with that reason, nothing ordered or signed; unfrozen, a new task moves the USDT", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const scope = yield* seedScope(1, { rentalAllowed: true })
      const w = yield* rentalWallet(scope.wallets[0]!, usdt(5n))
      // The issuer's addBlackList, through the simulated USDT contract (isBlackListed answers over the node's HTTP API).
      yield* sim.chain.setBlackListed(w.address, true)
      yield* sim.chain.mine(1)
      expect(yield* (yield* Chain.Chain).isBlackListed(w.address)).toBe(true)
      const frozen = yield* createTask(scope, w)
      yield* pass()
      const { task, webhook } = yield* taskOf(scope, frozen.id)
      expect(task).toMatchObject({ status: "failed", transaction: null, rental: null })
      expect(task.reason).toBe("the wallet's USDT is frozen by the token's issuer (isBlackListed): nothing is rented or signed for it")
      expect(JSON.parse(webhook!.payload)).toMatchObject({ status: "failed", txid: "", reason: task.reason })
      expect([...(yield* ordersFor(w.address)), ...(yield* sentFrom(w.address))]).toEqual([])
      yield* sim.chain.setBlackListed(w.address, false)
      yield* sim.chain.mine(1)
      expect(yield* (yield* Chain.Chain).isBlackListed(w.address)).toBe(false)
      const again = yield* createTask(scope, w)
      const done = yield* runUntilDone(scope, again.id)
      expect(done.task.status, done.task.reason).toBe("succeeded")
      expect(yield* usdtAt(scope.destination)).toBe(usdt(5n))
    }))

  it.effect("a node that does not answer: the claimed task is handed back unchanged, and goes on once the node is back", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const scope = yield* seedScope(1, { rentalAllowed: false })
      const w = yield* trxWallet(scope.wallets[0]!, usdt(5n))
      const created = yield* createTask(scope, w)
      yield* sim.chain.fail("error", 1_000)
      expect(yield* pass()).toMatchObject({ claimed: 1, saved: 1, failed: 1 })
      expect((yield* taskOf(scope, created.id)).task).toMatchObject({ status: "pending", stage: "queued", version: 1, amount: 0n, reason: "" })
      yield* Effect.sleep("1100 millis")
      const { task, seen } = yield* runUntilDone(scope, created.id)
      expect(task.status, `${task.reason} after ${seen.join(" -> ")}`).toBe("succeeded")
      expect(yield* sentFrom(w.address)).toEqual([task.transaction!.txid])
    }))

  /** The pass with the wallet's node reads and its key read noted, in the order they start. */
  const notingPass = Effect.gen(function*() {
    const chain = yield* Chain.Chain
    const reads = yield* Ref.make<ReadonlyArray<string>>([])
    const noted = <A, E>(what: string, read: Effect.Effect<A, E>) => Effect.zipRight(Ref.update(reads, (r) => [...r, what]), read)
    const counted = Chain.Chain.of({
      ...chain,
      account: (address, solidified) => noted("account", chain.account(address, solidified)),
      balances: (address, solidified) => noted("balances", chain.balances(address, solidified)),
      usdtBalance: (address) => noted("usdt", chain.usdtBalance(address)),
      trxBalance: (address) => noted("trx", chain.trxBalance(address)),
      resources: (address) => noted("resources", chain.resources(address)),
      isBlackListed: (address) => noted("freeze list", chain.isBlackListed(address)),
      estimateTransferEnergy: (transfer) => noted("estimate", chain.estimateTransferEnergy(transfer))
    })
    const repo = yield* Sweeps.SweepRepository
    const keyed = Sweeps.SweepRepository.of({ ...repo, signingKey: (walletId) => noted("key", repo.signingKey(walletId)) })
    const summary = yield* pass().pipe(Effect.provideService(Chain.Chain, counted), Effect.provideService(Sweeps.SweepRepository, keyed))
    const [first, second, third, ...rest] = yield* Ref.get(reads)
    // The balance, the resources and the key are read at once: the order they start in is the scheduler's.
    return { summary, atOnce: [first, second, third].sort(), after: rest }
  })

  it.effect("a sweep the wallet's TRX pays is prepared and signed in one step; its TRX is read because its energy falls short", () =>
    Effect.gen(function*() {
      const scope = yield* seedScope(1, { rentalAllowed: false })
      const w = yield* trxWallet(scope.wallets[0]!, usdt(4n))
      const created = yield* createTask(scope, w)
      const { summary, atOnce, after } = yield* notingPass
      expect(summary).toMatchObject({ claimed: 1, saved: 1, failed: 0 })
      // One save: the signed transaction, with everything the preparation fixed.
      expect((yield* taskOf(scope, created.id)).task).toMatchObject({ status: "signed", feeSource: "wallet_trx", amount: usdt(4n), version: 1 })
      // No whole-account reading, no freeze list (the estimate passed), no reading again for the
      // signature: the TRX, once the estimate shows the energy short of it.
      expect(atOnce).toEqual(["key", "resources", "usdt"])
      expect(after).toEqual(["estimate", "trx"])
      const { task, seen } = yield* runUntilDone(scope, created.id)
      expect(task.status, `${task.reason} after ${seen.join(" -> ")}`).toBe("succeeded")
      expect(yield* sentFrom(w.address)).toEqual([task.transaction!.txid])
    }))

  it.effect("a sweep the wallet's own energy pays reads its balance, resources and estimate only, and burns nothing", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const scope = yield* seedScope(1, { rentalAllowed: false })
      // Activated with a single SUN: its TRX could pay nothing, its delegated energy pays it all.
      const w = yield* rentalWallet(scope.wallets[0]!, usdt(6n))
      yield* sim.chain.delegateEnergy(w.address, 200_000n)
      yield* sim.chain.mine(1)
      const created = yield* createTask(scope, w)
      const { summary, atOnce, after } = yield* notingPass
      expect(summary).toMatchObject({ claimed: 1, saved: 1, failed: 0 })
      expect((yield* taskOf(scope, created.id)).task).toMatchObject({ status: "signed", feeSource: "resources", energyPath: "own", amount: usdt(6n) })
      expect(atOnce).toEqual(["key", "resources", "usdt"])
      expect(after).toEqual(["estimate"])
      const { task, seen } = yield* runUntilDone(scope, created.id)
      expect(task, `${task.reason} after ${seen.join(" -> ")}`).toMatchObject({ status: "succeeded", actualFee: 0n })
      expect(yield* sentFrom(w.address)).toEqual([task.transaction!.txid])
    }))

  it.effect("a pass reads a tenant's settings once, however many of its tasks it prepares", () =>
    Effect.gen(function*() {
      const settings = yield* Settings.SettingsRepository
      const scope = yield* seedScope(3, { rentalAllowed: false })
      const tasks = []
      for (const w of scope.wallets) tasks.push(yield* createTask(scope, yield* trxWallet(w, usdt(2n))))
      const reads = yield* Ref.make(0)
      const counted = Settings.SettingsRepository.of({ ...settings, get: (s) => Effect.zipRight(Ref.update(reads, (n) => n + 1), settings.get(s)) })
      expect(yield* Effect.provideService(pass(), Settings.SettingsRepository, counted)).toMatchObject({ claimed: 3, saved: 3, failed: 0 })
      expect(yield* Ref.get(reads)).toBe(1)
      // Finished, so the file's later passes claim none of them.
      for (const task of tasks) expect((yield* runUntilDone(scope, task.id)).task.status).toBe("succeeded")
    }))

  it.effect("a step whose node call fails is retried on the next pass from the state it was in", () =>
    Effect.gen(function*() {
      const chain = yield* Chain.Chain
      const scope = yield* seedScope(1, { rentalAllowed: false })
      const w = yield* trxWallet(scope.wallets[0]!, usdt(5n))
      const created = yield* createTask(scope, w)
      // Building the transfer fails once: nothing is signed, and the preparation is not saved
      // either (it is signed in the same step): the task waits in `queued`.
      const builds = yield* Ref.make(0)
      const flaky = Chain.Chain.of({
        ...chain,
        buildUsdtTransfer: (transfer) =>
          Effect.flatMap(Ref.getAndUpdate(builds, (n) => n + 1), (n) =>
            n === 0 ? Effect.fail(new Chain.ChainUnavailable({ reason: "connection reset" })) : chain.buildUsdtTransfer(transfer))
      })
      const flakyPass = Effect.provideService(pass(), Chain.Chain, flaky)
      expect(yield* flakyPass).toMatchObject({ claimed: 1, saved: 1, failed: 1 })
      expect((yield* taskOf(scope, created.id)).task).toMatchObject({ status: "pending", stage: "queued", transaction: null, version: 1 })
      const { task, seen } = yield* roundsUntilDone(flakyPass)(scope, created.id)
      expect(task.status, `${task.reason} after ${seen.join(" -> ")}`).toBe("succeeded")
      expect(yield* Ref.get(builds)).toBe(2)
      expect(yield* sentFrom(w.address)).toEqual([task.transaction!.txid])
    }))

  it.effect("a broadcast whose answer is lost: the task is unknown, then settled from its receipt; the transaction is sent once", () =>
    Effect.gen(function*() {
      const chain = yield* Chain.Chain
      const scope = yield* seedScope(1, { rentalAllowed: false })
      const w = yield* trxWallet(scope.wallets[0]!, usdt(5n))
      const created = yield* createTask(scope, w)
      // The node takes the transaction, and the connection drops before its answer.
      const answerLost = Chain.Chain.of({
        ...chain,
        broadcast: (transaction) =>
          Effect.zipRight(chain.broadcast(transaction), Effect.fail(new Chain.ChainUnavailable({ reason: "socket hang up" })))
      })
      const { task, seen } = yield* roundsUntilDone(Effect.provideService(pass(), Chain.Chain, answerLost))(scope, created.id)
      expect(task.status, `${task.reason} after ${seen.join(" -> ")}`).toBe("succeeded")
      expect(seen).toContain("unknown/ready")
      expect(yield* sentFrom(w.address)).toEqual([task.transaction!.txid])
    }))

  it.effect("another worker takes the task while a slow step runs: the slow step's save is refused, the task goes on once", () =>
    Effect.gen(function*() {
      const chain = yield* Chain.Chain
      const scope = yield* seedScope(1, { rentalAllowed: true })
      const w = yield* rentalWallet(scope.wallets[0]!)
      const created = yield* createTask(scope, w)
      // The slow worker's lease runs out at once; its preparation waits until the other worker has saved.
      const entered = yield* Deferred.make<void>()
      const gate = yield* Deferred.make<void>()
      const slow = Chain.Chain.of({
        ...chain,
        resources: (address) =>
          Deferred.succeed(entered, undefined).pipe(Effect.zipRight(Deferred.await(gate)), Effect.zipRight(chain.resources(address)))
      })
      const slowPass = yield* Effect.fork(Effect.provideService(pass("w-slow", { ...eagerSweeperSettings, leaseTtl: Duration.zero }), Chain.Chain, slow))
      yield* Deferred.await(entered)
      expect(yield* pass("w-fast")).toMatchObject({ claimed: 1, saved: 1, lost: 0 })
      const taken = (yield* taskOf(scope, created.id)).task
      expect(taken).toMatchObject({ status: "pending", stage: "renting", version: 1 })
      yield* Deferred.succeed(gate, undefined)
      expect(yield* Fiber.join(slowPass)).toMatchObject({ claimed: 1, saved: 0, lost: 1 })
      expect((yield* taskOf(scope, created.id)).task).toEqual(taken)
      const { task, seen } = yield* runUntilDone(scope, created.id)
      expect(task.status, `${task.reason} after ${seen.join(" -> ")}`).toBe("succeeded")
      expect(yield* ordersFor(w.address)).toHaveLength(1)
      expect(yield* sentFrom(w.address)).toEqual([task.transaction!.txid])
    }))

  it.effect("a sweeper that dies between two steps: a new one resumes from storage with no second order, signature or transaction", () =>
    Effect.gen(function*() {
      const signer = yield* Wallets.Signer
      const points = ["after:pending/renting", "after:pending/waiting_energy", "after:ready/ready", "after:signed/ready", "after:broadcast/ready"]
      const scope = yield* seedScope(points.length, { rentalAllowed: true })
      const signatures = yield* Ref.make(new Map<string, number>())
      const counting = Wallets.Signer.of({
        sign: (wallet, hash) =>
          Effect.tap(signer.sign(wallet, hash), () => Ref.update(signatures, (m) => new Map(m).set(wallet.address, (m.get(wallet.address) ?? 0) + 1)))
      })
      for (const [i, point] of points.entries()) {
        const w = yield* rentalWallet(scope.wallets[i]!)
        const created = yield* createTask(scope, w)
        const dying = Effect.provideService(pass(`dying-${i}`, eagerSweeperSettings, (at) => (at === point ? Effect.dieMessage(`died at ${at}`) : Effect.void)), Wallets.Signer, counting)
        const sim = yield* Sim
        let died = false
        for (let round = 0; round < 60 && !died; round++) {
          died = Exit.isFailure(yield* Effect.exit(dying))
          if (!died) yield* sim.chain.mine(1)
        }
        expect(died, point).toBe(true)
        const { task, seen } = yield* roundsUntilDone(Effect.provideService(pass(`next-${i}`), Wallets.Signer, counting))(scope, created.id)
        expect(task.status, `${point}: ${task.reason} after ${seen.join(" -> ")}`).toBe("succeeded")
        expect((yield* ordersFor(w.address)).length, point).toBe(1)
        expect((yield* Ref.get(signatures)).get(w.address), point).toBe(1)
        expect(yield* sentFrom(w.address), point).toEqual([task.transaction!.txid])
        expect((yield* booksOf(w)).collectedUsdt, point).toBe(usdt(30n))
      }
    }), { timeout: 300_000 })

  it.effect("the database goes away after the claim: once it answers, the same sweeper hands the task back and steps it, long before the lease ends", () =>
    Effect.gen(function*() {
      const { summary, steppedAfter, stepped, task, seen, sent } = yield* afterOutage("afterClaim")
      expect(summary).toMatchObject({ claimed: 1, saved: 1, failed: 0 })
      expect(stepped).toMatchObject({ status: "signed", version: 1 })
      expect(steppedAfter).toBeLessThan(6_000)
      expect(task.status, `${task.reason} after ${seen.join(" -> ")}`).toBe("succeeded")
      // One transaction went out: the stored one.
      expect(sent).toEqual([task.transaction!.txid])
    }))

  it.effect("a claim whose reply was lost: once the database answers, the claimed task is handed back and stepped, long before the lease ends", () =>
    Effect.gen(function*() {
      const { summary, steppedAfter, stepped, task, seen, sent } = yield* afterOutage("claimReplyLost")
      expect(summary).toMatchObject({ claimed: 1, saved: 1, failed: 0 })
      expect(stepped).toMatchObject({ status: "signed", version: 1 })
      expect(steppedAfter).toBeLessThan(6_000)
      expect(task.status, `${task.reason} after ${seen.join(" -> ")}`).toBe("succeeded")
      expect(sent).toEqual([task.transaction!.txid])
    }))

  it.effect("run: passes on its own until interrupted, and says so on the component board", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const scope = yield* seedScope(1, { rentalAllowed: false })
      const w = yield* trxWallet(scope.wallets[0]!, usdt(2n))
      const created = yield* createTask(scope, w)
      const running = yield* Effect.fork(Effect.flatMap(Effect.provide(Sweeps.Sweeper, Sweeps.Sweeper.layer(eagerSweeperSettings)), (sweeper) => sweeper.run("nile", "w-run")))
      let status = "pending"
      for (let round = 0; round < 100 && status !== "succeeded"; round++) {
        yield* sim.chain.mine(1)
        yield* Effect.sleep("30 millis")
        status = (yield* taskOf(scope, created.id)).task.status
      }
      yield* Fiber.interrupt(running)
      expect(status).toBe("succeeded")
      expect(yield* sweeperReport).toMatchObject({ component: "sweeper", network: "nile", status: "ok" })
    }))
})
