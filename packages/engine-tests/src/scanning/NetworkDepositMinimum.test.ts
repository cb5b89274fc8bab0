import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { Sim } from "../chain/testing/SimWorld.js"
import { Notifications, Scanning, Tenants } from "@collector/core"
import { eagerScannerLoopSettings, StorageFixtures } from "@collector/core/testing"
import { depositsAt, eventsOf, newAddress, pass, pendingOf, scanWorldWith, seedTenant } from "./testing/ScanWorld.js"

const firstLog = (txid: string) => [{ txid, logIndex: 0 }]

// The network's minimum: 0.01 USDT.
layer(scanWorldWith(10_000n), { excludeTestServices: true, timeout: 120_000 })("the network's deposit minimum", (it) => {
  it.effect("a transfer under the network's minimum is no deposit, at or above it is; a tenant's own minimum replaces it", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const { scope, wallets: [w] } = yield* seedTenant("block_1")
      const lenient = yield* seedTenant("block_1")
      yield* (yield* Tenants.TenantRepository).setDepositMinimum(lenient.scope.tenantId, "nile", 1n)
      const under = yield* sim.chain.mintUsdt(w!.address, 9_999n)
      const at = yield* sim.chain.mintUsdt(w!.address, 10_000n)
      const lenientSmall = yield* sim.chain.mintUsdt(lenient.wallets[0]!.address, 5n)
      yield* sim.chain.mine(1)
      yield* pass()
      expect(yield* depositsAt(firstLog(under))).toEqual([])
      expect(yield* depositsAt(firstLog(at))).toEqual([expect.objectContaining({ amount: 10_000n })])
      expect(yield* depositsAt(firstLog(lenientSmall))).toEqual([expect.objectContaining({ amount: 5n })])
      expect((yield* eventsOf(scope)).length).toBe(1)
    }))

  it.effect("the integrity check's re-read restores no transfer under the minimum", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const { scope } = yield* seedTenant("block_1")
      const late = newAddress()
      const dust = yield* sim.chain.mintUsdt(late.address, 9_999n)
      yield* sim.chain.mine(1)
      yield* pass()
      yield* Effect.flatMap(StorageFixtures, (fixtures) => fixtures.wallet(scope, { address: late.address }))
      // A new scanner's first pass re-checks the recent blocks, where the dust now goes to a wallet.
      const fresh = yield* Effect.provide(Scanning.ScannerLoop, Scanning.ScannerLoop.layer(eagerScannerLoopSettings).pipe(Layer.provide(Notifications.OutboxSignal.layer)))
      yield* fresh.pass("nile")
      yield* fresh.pass("nile")
      expect(yield* pendingOf(scope)).toEqual([])
      expect(yield* depositsAt(firstLog(dust))).toEqual([])
      expect(Option.isNone(Option.fromNullable((yield* eventsOf(scope))[0]))).toBe(true)
    }))
})
