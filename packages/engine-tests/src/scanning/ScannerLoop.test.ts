import { signWith, wallet } from "@collector/tron-sim/testing"
import { expect, layer } from "@effect/vitest"
import { Clock, Effect, Fiber, Layer, Metric, Option, Schedule } from "effect"
import { Chain, Deposits, Engine, Notifications, Scanning, Sweeps, Tenants } from "@collector/core"
import { eagerScannerLoopSettings, StorageFixtures } from "@collector/core/testing"
import { Sim } from "../chain/testing/SimWorld.js"
import { blockOf, depositsAt, eventsOf, newAddress, pass, pendingOf, ScanWorld, seedTenant, usdt } from "./testing/ScanWorld.js"

const firstLog = (txid: string) => [{ txid, logIndex: 0 }]

layer(ScanWorld, { excludeTestServices: true, timeout: 120_000 })("the scanner loop on the simulated node", (it) => {
  it.effect("block_1: a transfer is a deposit once its block is stored, with its event; the pass reports the scanner's lag", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const { scope, wallets: [w] } = yield* seedTenant("block_1")
      yield* pass()
      const txid = yield* sim.chain.mintUsdt(w!.address, usdt(5n))
      const [block] = yield* sim.chain.mine(1)
      expect(yield* pass()).toBe(true)
      const [deposit] = yield* depositsAt(firstLog(txid))
      expect(deposit).toMatchObject({
        tenantId: scope.tenantId,
        network: "nile",
        status: "confirmed",
        revision: 1,
        walletId: w!.id,
        customId: w!.customId,
        address: w!.address,
        txid,
        logIndex: 0,
        amount: usdt(5n),
        blockNumber: block!.number,
        blockHash: block!.blockId,
        confirmationType: "block_1",
        confirmations: 1
      })
      expect(yield* eventsOf(scope)).toEqual([{
        id: deposit!.eventId,
        eventType: "deposit.confirmed",
        depositId: deposit!.id,
        revision: 1,
        payload: JSON.stringify(Deposits.depositRecord(deposit!))
      }])
      expect(yield* pendingOf(scope)).toEqual([])
      const reports = yield* Effect.flatMap(Engine.ComponentStatus, (status) => status.list("nile"))
      expect(reports.find((r) => r.component === "scanner")).toMatchObject({ status: "ok", detail: expect.stringContaining("lag 0 blocks") })
    }))

  it.effect("running at the head: no pass until the node has a new block; then the block's deposit is booked and the notifier woken", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const signal = yield* Notifications.OutboxSignal
      const { wallets: [w] } = yield* seedTenant("block_1")
      yield* pass()
      const scannerReport = Effect.map(Effect.flatMap(Engine.ComponentStatus, (status) => status.list("nile")), (reports) => reports.find((r) => r.component === "scanner")!)
      const before = yield* scannerReport
      const running = yield* Effect.fork(Effect.flatMap(Scanning.ScannerLoop, (loop) => loop.run("nile", "test-run")))
      // The first pass of the run reports (waited for: a loaded machine may take more than a poll
      // for it), then eight polls (50 ms each) find the same head and report nothing.
      const idle = yield* scannerReport.pipe(
        Effect.filterOrFail((report) => report.updatedAt.getTime() !== before.updatedAt.getTime(), () => "not yet"),
        Effect.retry(Schedule.spaced("20 millis")),
        Effect.timeoutFail({ duration: "10 seconds", onTimeout: () => new Error("the run's first pass did not report") })
      )
      yield* Effect.sleep("400 millis")
      expect((yield* scannerReport).updatedAt).toEqual(idle.updatedAt)
      yield* signal.wait(0)
      const txid = yield* sim.chain.mintUsdt(w!.address, usdt(2n))
      yield* sim.chain.mine(1)
      const started = yield* Clock.currentTimeMillis
      yield* signal.wait("5 seconds")
      expect((yield* Clock.currentTimeMillis) - started).toBeLessThan(5_000)
      expect(yield* depositsAt(firstLog(txid))).toEqual([expect.objectContaining({ status: "confirmed", revision: 1 })])
      yield* Fiber.interrupt(running)
    }))

  it.effect("block_3: not a deposit at 2 confirmations, a deposit at 3", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const { scope, wallets: [w] } = yield* seedTenant("block_3")
      const txid = yield* sim.chain.mintUsdt(w!.address, usdt(1n))
      yield* sim.chain.mine(2)
      yield* pass()
      expect(yield* depositsAt(firstLog(txid))).toEqual([])
      expect((yield* pendingOf(scope)).map((l) => l.txid)).toEqual([txid])
      yield* sim.chain.mine(1)
      yield* pass()
      expect(yield* depositsAt(firstLog(txid))).toEqual([expect.objectContaining({ confirmationType: "block_3", confirmations: 3, status: "confirmed" })])
      expect(yield* pendingOf(scope)).toEqual([])
    }))

  it.effect("solidified: a deposit only once its block is 19 below the head, with no confirmation count", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const { scope, wallets: [w] } = yield* seedTenant("solidified")
      const txid = yield* sim.chain.mintUsdt(w!.address, usdt(2n))
      yield* sim.chain.mine(19)
      yield* pass()
      expect(yield* depositsAt(firstLog(txid))).toEqual([])
      yield* sim.chain.mine(1)
      yield* pass()
      expect(yield* depositsAt(firstLog(txid))).toEqual([expect.objectContaining({ confirmationType: "solidified", confirmations: null, status: "confirmed" })])
      expect((yield* eventsOf(scope)).map((e) => e.eventType)).toEqual(["deposit.confirmed"])
    }))

  it.effect("a reorganisation that moves the transfer to another block: reverted, then confirmed again under the same deposit", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const { scope, wallets: [w] } = yield* seedTenant("block_1")
      const txid = yield* sim.chain.mintUsdt(w!.address, usdt(4n))
      yield* sim.chain.mine(1)
      yield* pass()
      const [first] = yield* depositsAt(firstLog(txid))
      yield* sim.chain.reorg(1)
      yield* pass()
      const [again] = yield* depositsAt(firstLog(txid))
      expect(again).toMatchObject({ id: first!.id, status: "confirmed", revision: 3, amount: usdt(4n) })
      expect(again!.blockHash).not.toBe(first!.blockHash)
      expect(again!.blockHash).toBe(Option.getOrThrow(yield* blockOf(txid)).blockId)
      const events = yield* eventsOf(scope)
      expect(events.map((e) => [e.eventType, e.depositId, e.revision])).toEqual([
        ["deposit.confirmed", first!.id, 1],
        ["deposit.reverted", first!.id, 2],
        ["deposit.confirmed", first!.id, 3]
      ])
      expect(JSON.parse(events[1]!.payload)).toMatchObject({ status: "reverted", revision: 2, block_hash: first!.blockHash })
      expect(events[2]!.payload).toBe(JSON.stringify(Deposits.depositRecord(again!)))
    }))

  it.effect("a reorganisation that drops the transfer reverts the deposit: revision 2, a new event", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const { scope, wallets: [w] } = yield* seedTenant("block_1")
      const txid = yield* sim.chain.mintUsdt(w!.address, usdt(7n))
      yield* sim.chain.mine(1)
      yield* pass()
      const [confirmed] = yield* depositsAt(firstLog(txid))
      yield* sim.chain.reorg(1, [txid])
      yield* pass()
      expect(yield* depositsAt(firstLog(txid))).toEqual([
        expect.objectContaining({ id: confirmed!.id, status: "reverted", revision: 2, blockHash: confirmed!.blockHash })
      ])
      expect((yield* eventsOf(scope)).map((e) => [e.eventType, e.revision])).toEqual([["deposit.confirmed", 1], ["deposit.reverted", 2]])
      expect(Option.isNone(yield* blockOf(txid))).toBe(true)
    }))

  it.effect("a 0-value transfer is never a deposit, nor one under the tenant's minimum; both are counted, nothing stored or announced", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const ignored = (reason: string) => Effect.map(Metric.value(Scanning.depositsIgnored("nile", reason)), (state) => state.count)
      const [zeroBefore, dustBefore] = [yield* ignored("zero"), yield* ignored("below_minimum")]
      const { scope, wallets: [w] } = yield* seedTenant("block_1")
      const other = yield* seedTenant("block_1")
      yield* sim.chain.activate(w!.address, 20_000_000n)
      yield* sim.chain.mintUsdt(w!.address, usdt(3n))
      yield* sim.chain.mine(1)
      yield* pass()
      // A look-alike sender's 0-value transfer (address poisoning), and a mint of 0.
      const poison = yield* sim.chain.transferUsdt({ from: w!.address, to: other.wallets[0]!.address, amount: 0n })
      const zeroMint = yield* sim.chain.mintUsdt(other.wallets[0]!.address, 0n)
      yield* (yield* Tenants.TenantRepository).setDepositMinimum(other.scope.tenantId, "nile", 1_000_000n)
      const dust = yield* sim.chain.mintUsdt(other.wallets[0]!.address, 999_999n)
      const enough = yield* sim.chain.mintUsdt(other.wallets[0]!.address, 1_000_000n)
      yield* sim.chain.mine(1)
      yield* pass()
      expect(yield* depositsAt([...firstLog(poison), ...firstLog(zeroMint), ...firstLog(dust)])).toEqual([])
      expect(yield* depositsAt(firstLog(enough))).toEqual([expect.objectContaining({ amount: 1_000_000n })])
      expect((yield* eventsOf(other.scope)).length).toBe(1)
      expect((yield* pendingOf(other.scope)).map((l) => l.txid)).toEqual([])
      expect((yield* ignored("zero")) - zeroBefore).toBe(2)
      expect((yield* ignored("below_minimum")) - dustBefore).toBe(1)
      // Cleared, the tenant follows the network's minimum again (none here): 1 base unit is a deposit.
      yield* (yield* Tenants.TenantRepository).setDepositMinimum(other.scope.tenantId, "nile", null)
      const small = yield* sim.chain.mintUsdt(other.wallets[0]!.address, 1n)
      yield* sim.chain.mine(1)
      yield* pass()
      expect(yield* depositsAt(firstLog(small))).toEqual([expect.objectContaining({ amount: 1n })])
      expect((yield* eventsOf(scope)).length).toBe(1)
    }))

  it.effect("our own sweep into a wallet of the tenant it swept for is no deposit, only a balance to read again; anyone else's transfer there is", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const chain = yield* Chain.Chain
      const repo = yield* Sweeps.SweepRepository
      const fixtures = yield* StorageFixtures
      const { scope, wallets: [source, collector] } = yield* seedTenant("block_1", 2)
      yield* sim.chain.activate(source!.address, 20_000_000n)
      const funding = yield* sim.chain.mintUsdt(source!.address, usdt(7n))
      yield* sim.chain.mine(1)
      yield* pass()
      // The sweep task of the source wallet, signed and stored as the sweeper does before any broadcast.
      const now = yield* Clock.currentTimeMillis
      const [task] = yield* repo.insert(scope, [{
        walletId: source!.id,
        address: source!.address,
        mode: "all",
        requestedAmount: null,
        minimumAmount: null,
        destination: collector!.address,
        origin: "manual",
        maxWalletTrxFee: 15_000_000n,
        prepareBy: new Date(now + 3_600_000)
      }], new Date(now))
      const [held] = yield* repo.claim("nile", "w1", new Date(now), new Date(now + 60_000), 1000).pipe(
        Effect.map((tasks) => tasks.filter((t) => t.id === task!.id))
      )
      const unsigned = yield* chain.buildUsdtTransfer({ from: source!.address, to: collector!.address, amount: usdt(7n), feeLimit: 30_000_000n })
      const signed = signWith(unsigned, wallet(source!.index))
      expect(yield* repo.save({
        ...held!,
        status: "signed",
        stage: "ready",
        amount: usdt(7n),
        transaction: { txid: signed.txid, rawDataHex: signed.rawDataHex, signature: signed.signatures[0]!, expiration: signed.expiration, feeLimit: signed.feeLimit }
      }, "w1")).toBe(true)
      expect(yield* chain.broadcast(signed)).toEqual({ _tag: "Accepted" })
      yield* sim.chain.mine(1)
      yield* pass()
      const sweptIn = Option.getOrThrow(yield* blockOf(signed.txid))
      expect(yield* depositsAt(firstLog(signed.txid))).toEqual([])
      expect((yield* pendingOf(scope)).map((l) => l.txid)).not.toContain(signed.txid)
      expect((yield* fixtures.sweptWalletBooks(collector!.id)).balanceStaleFrom).toBe(sweptIn.number)
      // Money from outside into the same wallet is a deposit as any other.
      const outside = yield* sim.chain.mintUsdt(collector!.address, usdt(2n))
      yield* sim.chain.mine(1)
      yield* pass()
      expect(yield* depositsAt(firstLog(outside))).toEqual([expect.objectContaining({ walletId: collector!.id, amount: usdt(2n) })])
      expect((yield* eventsOf(scope)).map((e) => [e.eventType, e.depositId])).toEqual([
        ["deposit.confirmed", (yield* depositsAt(firstLog(funding)))[0]!.id],
        ["deposit.confirmed", (yield* depositsAt(firstLog(outside)))[0]!.id]
      ])
    }))

  it.effect("integrity: a wallet added after its transfer's block was scanned gets that transfer booked, once", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const loop = yield* Scanning.ScannerLoop
      const { scope } = yield* seedTenant("block_1")
      const late = newAddress()
      const txid = yield* sim.chain.mintUsdt(late.address, usdt(6n))
      yield* sim.chain.mine(1)
      yield* pass()
      expect(yield* depositsAt(firstLog(txid))).toEqual([])
      // The address becomes a tenant wallet only now (a restore, an import): the scanner passed its block.
      const w = yield* Effect.flatMap(StorageFixtures, (fixtures) => fixtures.wallet(scope, { address: late.address }))
      // The pass that sees the new wallet restores its transfer; the next one books it.
      yield* loop.pass("nile")
      expect((yield* pendingOf(scope)).map((l) => [l.txid, l.walletId])).toEqual([[txid, w.id]])
      yield* loop.pass("nile")
      expect(yield* depositsAt(firstLog(txid))).toEqual([expect.objectContaining({ walletId: w.id, amount: usdt(6n), status: "confirmed", revision: 1 })])
      // Checked again by a new scanner, whose first pass re-checks the recent blocks: already booked, never booked twice.
      yield* Effect.flatMap(Effect.provide(Scanning.ScannerLoop, Scanning.ScannerLoop.layer(eagerScannerLoopSettings).pipe(Layer.provide(Notifications.OutboxSignal.layer))), (fresh) => fresh.pass("nile"))
      expect((yield* eventsOf(scope)).map((e) => [e.eventType, e.revision])).toEqual([["deposit.confirmed", 1]])
    }))
})
