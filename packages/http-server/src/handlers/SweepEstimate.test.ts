import { Sweeps } from "@collector/core"
import { SimEnergyProvider } from "@collector/energy"
import type { SimHttp } from "@collector/tron-sim"
import { adapterFor, startSimNode } from "@collector/tron-sim/testing"
import { wallet } from "@collector/tron-sim/testing"
import { FetchHttpClient } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"
import { expectError, expectOk, header } from "../testing/Assertions.js"
import { sweepsOf } from "../testing/Sweeps.js"
import { TestServerLive } from "../testing/TestServer.js"
import { type Client, pastMaxAmount, tenantClients } from "../testing/Wallets.js"

/**
 * The estimate through the real server and PostgreSQL, reading the simulated node over HTTP with
 * the production adapter, and the simulator's energy provider through its adapter.
 */

class Sim extends Context.Tag("SweepEstimateSim")<Sim, SimHttp.SimServer>() {}

const SimLive = Layer.scoped(Sim, startSimNode())

const SimResources = Layer.effect(
  Sweeps.NetworkResources,
  Effect.gen(function*() {
    const sim = yield* Sim
    const chain = yield* adapterFor(sim.url)
    const provider = yield* SimEnergyProvider.make(SimEnergyProvider.defaultSimProviderConfig(sim.url)).pipe(Effect.provide(FetchHttpClient.layer))
    return {
      chain: (network) => (network === "nile" ? Effect.succeed(chain) : Sweeps.unconfiguredNetworkResources.chain(network)),
      energyProvider: () => Effect.succeed(provider)
    }
  })
).pipe(Layer.provide(SimLive))

const usdt = (n: bigint) => n * 1_000_000n
const trx = (n: bigint) => n * 1_000_000n
// A transfer to an address that holds USDT uses 64,285 energy on the simulator; +10% is 70,714.
const prepared = 70_714n

const policy = (client: Client, overrides: Record<string, unknown> = {}) =>
  Effect.map(client.post("/open/v1/settings/automation", {
    enabled: false, threshold: "1000000", interval_minutes: 60, max_wallet_trx_fee: "15000000", max_rental_cost: "10000000",
    rental_allowed: false, request_id: randomUUID(), ...overrides
  }), expectOk)

const estimateItem = {
  keys: [
    "wallet_id", "address", "amount", "sweepable", "reason", "fee_source", "energy_estimate", "prepared_energy", "energy_available",
    "estimated_wallet_trx_fee", "estimated_rental_cost", "estimated_activation_cost", "bandwidth_needed", "bandwidth_available",
    "waits_for_bandwidth", "energy_path", "fee_reason"
  ]
}

layer(Layer.mergeAll(TestServerLive({ rateBurst: 1000, ratePerSecond: 1000 }, { networkResources: SimResources }), SimLive), {
  excludeTestServices: true
})("sweep estimate over the simulated node", (it) => {
  it.effect("each fee source from the wallets' state on chain, with the rental quote, the reasons and the totals", () =>
    Effect.gen(function*() {
      const sim = yield* Sim
      const { client, clients } = yield* tenantClients(["nile", "main"])
      const collector = wallet(40 + Math.floor(Math.random() * 1000))
      expectOk(yield* client.setCollection(collector.address))
      const ws = yield* client.createWallets(7, "est")
      const [withEnergy, withTrx, poor, inactive, empty, small, collecting] = ws as [any, any, any, any, any, any, any]
      yield* sim.chain.mintUsdt(collector.address, 1n)
      for (const w of [withEnergy, withTrx, poor, inactive, small, collecting]) yield* sim.chain.mintUsdt(w.address, usdt(w === small ? 1n : 50n))
      yield* sim.chain.activate(withEnergy.address, trx(1n))
      yield* sim.chain.activate(withTrx.address, trx(100n))
      yield* sim.chain.activate(poor.address, trx(1n))
      yield* sim.chain.activate(empty.address, trx(1n))
      yield* sim.chain.activate(small.address, trx(100n))
      yield* sim.chain.activate(collecting.address, trx(100n))
      yield* sim.chain.mine()
      yield* sim.chain.delegateEnergy(withEnergy.address, 100_000n)
      yield* sim.chain.mine(20)
      yield* sweepsOf(client).createTasks([collecting.id])
      const sweeps = sweepsOf(client)
      const ids = [withEnergy, withTrx, poor, inactive, empty, small, collecting].map((w) => w.id)

      // Rental not allowed (the default policy).
      const plain = expectOk(yield* sweeps.estimate({ wallet_ids: [...ids, "9223372036854775807"], sweep_mode: "fixed", amount: usdt(10n).toString() }))
      expect(Object.keys(plain)).toEqual(["network", "items", "not_found_ids", "total"])
      expect(plain.network).toBe("nile")
      expect(plain.not_found_ids).toEqual(["9223372036854775807"])
      for (const item of plain.items) expect(Object.keys(item)).toEqual(estimateItem.keys)
      const [a, b, c, d, e, f, g] = plain.items
      expect(a).toEqual({
        wallet_id: withEnergy.id, address: withEnergy.address, amount: "10000000", sweepable: true, reason: "", fee_source: "resources",
        energy_estimate: "64285", prepared_energy: prepared.toString(), energy_available: "100000", estimated_wallet_trx_fee: "0",
        estimated_rental_cost: "0", estimated_activation_cost: "0", bandwidth_needed: "345", bandwidth_available: "600",
        waits_for_bandwidth: false, energy_path: "own", fee_reason: `the wallet's own energy covers the ${prepared} needed`
      })
      expect(b).toMatchObject({ sweepable: true, fee_source: "wallet_trx", energy_path: "burn", estimated_wallet_trx_fee: (prepared * 100n).toString(), energy_available: "0" })
      expect(c).toMatchObject({
        sweepable: false, fee_source: null,
        reason: `no way to pay ${prepared} energy: energy rental is not allowed; burning would cost ${prepared * 100n} SUN and the wallet holds 1000000`
      })
      expect(d).toMatchObject({
        sweepable: false, fee_source: null, reason: `no way to pay ${prepared} energy: energy rental is not allowed; the wallet is not activated on chain`,
        bandwidth_available: "600", waits_for_bandwidth: false
      })
      expect(e).toMatchObject({ amount: "10000000", sweepable: false, fee_source: null, reason: "the wallet holds no USDT at the solidified block" })
      expect(f).toMatchObject({ sweepable: false, fee_source: "wallet_trx", reason: "the amount 10000000 is above the wallet's USDT balance 1000000" })
      expect(g).toMatchObject({ sweepable: false, fee_source: "wallet_trx", reason: `wallet ${collecting.id} already has an unfinished sweep task` })
      expect(plain.total).toEqual({
        amount: "20000000", prepared_energy: (prepared * 2n).toString(), estimated_wallet_trx_fee: (prepared * 100n).toString(),
        estimated_rental_cost: "0", estimated_activation_cost: "0"
      })

      // Rental allowed: the poor wallet rents its whole shortfall, the inactive one with its activation.
      yield* policy(client, { rental_allowed: true })
      const rented = expectOk(yield* sweeps.estimate({ wallet_ids: [poor.id, inactive.id], sweep_mode: "all" }))
      expect(rented.items).toMatchObject([
        { amount: "50000000", sweepable: true, fee_source: "rental", estimated_rental_cost: (prepared * 90n).toString(), estimated_activation_cost: "0" },
        { amount: "50000000", sweepable: true, fee_source: "rental", estimated_rental_cost: (prepared * 90n).toString(), estimated_activation_cost: "1100000" }
      ])
      expect(rented.total).toMatchObject({ amount: "100000000", estimated_rental_cost: (prepared * 180n).toString(), estimated_activation_cost: "1100000" })
      // Above max_rental_cost (activation included): not sweepable; a cap below the wallet's TRX fee sends that wallet to rental too.
      yield* policy(client, { rental_allowed: true, max_rental_cost: "7000000", max_wallet_trx_fee: "1000000" })
      const capped = expectOk(yield* sweeps.estimate({ wallet_ids: [inactive.id, withTrx.id], sweep_mode: "all" }))
      expect(capped.items).toMatchObject([
        {
          sweepable: false, fee_source: null, energy_path: null,
          reason: `no way to pay ${prepared} energy: the energy rental would cost ${prepared * 90n + 1_100_000n} SUN, above max_rental_cost 7000000; ` +
            "the wallet is not activated on chain"
        },
        { sweepable: true, fee_source: "rental", estimated_rental_cost: (prepared * 90n).toString() }
      ])
      // Read-only: nothing was ordered, no task created, and the other network has no node configured.
      expect(yield* sim.provider.orders).toEqual([])
      expect((yield* sweeps.list()).total).toBe(1)
      const other = yield* sweepsOf(clients[1]!).estimate({ wallet_ids: ["1"], sweep_mode: "all" })
      expect(expectOk(other)).toMatchObject({ network: "main", items: [], not_found_ids: ["1"] })
    }), { timeout: 60_000 })

  it.effect("the request rules of create, at most 100 IDs, and no request_id", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const sweeps = sweepsOf(client)
      const bad = (body: object, message?: string) =>
        Effect.gen(function*() {
          const res = yield* sweeps.estimate(body)
          expectError(res, 400, "INVALID_ARGUMENT")
          if (message !== undefined) expect(res.json.message).toBe(message)
        })
      yield* bad({ wallet_ids: ["1"], sweep_mode: "fixed" }, "invalid request: amount is required when sweep_mode is fixed")
      yield* bad({ wallet_ids: ["1"], sweep_mode: "all", amount: "1" }, "invalid request: amount must be absent when sweep_mode is all")
      for (const amount of ["0", "-5", "007", pastMaxAmount]) yield* bad({ wallet_ids: ["1"], sweep_mode: "fixed", amount })
      yield* bad({ wallet_ids: ["1", "1"], sweep_mode: "all" }, "invalid request: wallet_ids: wallet_ids must not repeat an ID")
      yield* bad({ wallet_ids: Array.from({ length: 101 }, (_, i) => String(i + 1)), sweep_mode: "all" })
      yield* bad({ wallet_ids: [], sweep_mode: "all" })
      yield* bad({ wallet_ids: ["1"], sweep_mode: "all", request_id: randomUUID() }, "invalid request: request_id: unknown field")
      const hundred = Array.from({ length: 100 }, (_, i) => String(5_000_000 + i))
      expect(expectOk(yield* sweeps.estimate({ wallet_ids: hundred, sweep_mode: "all" })).not_found_ids).toHaveLength(100)
    }))
})

layer(TestServerLive({ rateBurst: 1000, ratePerSecond: 1000 }), { excludeTestServices: true })("sweep estimate without a node", (it) => {
  it.effect("a node that does not answer is 500 with a message that names no host", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const [w] = yield* client.createWallets(1)
      const res = yield* sweepsOf(client).estimate({ wallet_ids: [w!.id], sweep_mode: "all" })
      expectError(res, 500, "INTERNAL_ERROR")
      expect(res.json.message).toBe("estimate unavailable: the nile TRON node did not answer, try again later")
    }))
})

// A budget of 13 node requests a minute: one estimate of two wallets (1 + 2 × 6) at a time.
layer(Layer.mergeAll(TestServerLive({ rateBurst: 1000, ratePerSecond: 1000 }, { networkResources: SimResources, tenantLimits: { estimateNodeRequestsPerMinute: 13 } }), SimLive), {
  excludeTestServices: true
})("sweep estimate node budget", (it) => {
  it.effect("a tenant's estimates spend its own node budget: past it 429 RATE_LIMITED with Retry-After, other tenants unaffected", () =>
    Effect.gen(function*() {
      const { client } = yield* tenantClients()
      const [a, b] = yield* client.createWallets(2, "budget")
      const sweeps = sweepsOf(client)
      expect(expectOk(yield* sweeps.estimate({ wallet_ids: [a!.id, b!.id], sweep_mode: "all" })).items).toHaveLength(2)
      const refused = yield* sweeps.estimate({ wallet_ids: [a!.id], sweep_mode: "all" })
      expectError(refused, 429, "RATE_LIMITED")
      expect(refused.json.message).toBe("too many requests: the sweep estimate budget of node requests is spent, retry later")
      // 7 requests at 13 a minute: about 32 seconds, however fast the first estimate was.
      const retryAfter = header(refused, "retry-after")
      expect(retryAfter).toMatch(/^[0-9]+$/)
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(28)
      expect(Number(retryAfter)).toBeLessThanOrEqual(33)
      // Unknown wallets cost the node nothing and are still answered.
      expect(expectOk(yield* sweeps.estimate({ wallet_ids: ["9223372036854775807"], sweep_mode: "all" })).not_found_ids).toHaveLength(1)
      const other = yield* tenantClients()
      const [c] = yield* other.client.createWallets(1, "budget")
      expectOk(yield* sweepsOf(other.client).estimate({ wallet_ids: [c!.id], sweep_mode: "all" }))
    }))
})
