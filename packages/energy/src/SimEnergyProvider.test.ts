import type { Energy } from "@collector/core"
import { defaultSimConfig, SimHttp } from "@collector/tron-sim"
import { wallet } from "@collector/tron-sim/testing"
import { FetchHttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Option, TestClock } from "effect"
import { defaultSimProviderConfig, make } from "./SimEnergyProvider.js"

/**
 * The adapter against the real simulator over HTTP: each fault of the simulated provider as
 * the port must report it.
 */

const active = wallet(1)
const fresh = wallet(2)
const rental = { receiver: active.address, energy: 65_000n, activate: false }

const control = (url: string, path: string, body: unknown = {}) =>
  Effect.promise(() => fetch(`${url}/sim/provider/${path}`, { method: "POST", body: JSON.stringify(body) }).then((r) => r.json()))

const started = Effect.gen(function*() {
  const sim = yield* SimHttp.start({
    chain: defaultSimConfig("nile", { genesisAccounts: [{ address: active.address, trx: 1_000_000n }] }),
    blocks: "manual"
  }).pipe(Effect.orDie)
  const provider: Energy.EnergyProviderService = yield* make(defaultSimProviderConfig(sim.url, { requestTimeout: Duration.millis(800) })).pipe(
    Effect.provide(FetchHttpClient.layer)
  )
  return { sim, provider, fault: (path: string, body: unknown = {}) => control(sim.url, path, body) }
})

const found = (provider: Energy.EnergyProviderService, orderId: string) => Effect.map(provider.find(orderId), Option.getOrThrow)

describe("SimEnergyProvider adapter over the simulated node", () => {
  it.scopedLive("quotes in SUN, with the activation of an inactive receiver", () =>
    Effect.gen(function*() {
      const { provider } = yield* started
      expect(provider).toMatchObject({ name: "sim", supportsActivation: true, minimumEnergy: 10_000n })
      expect(yield* provider.quote(rental)).toEqual({ energy: 65_000n, cost: 5_850_000n, activationCost: 0n, durationSeconds: 3600 })
      expect(yield* provider.quote({ ...rental, receiver: fresh.address, activate: true })).toEqual({
        energy: 65_000n,
        cost: 5_850_000n,
        activationCost: 1_100_000n,
        durationSeconds: 3600
      })
      const refused = yield* Effect.flip(provider.quote({ ...rental, energy: 5n }))
      expect(refused._tag).toBe("ProviderRejected")
      expect(refused.reason).toContain("INVALID_ENERGY")
    }))

  it.scopedLive("orders under our number, delivered with the next block; the same number again orders nothing", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* started
      const placed = yield* provider.order("rent-1", rental)
      expect(placed).toEqual({
        orderId: "rent-1",
        providerOrderId: "SIM00000001",
        state: "pending",
        deliveredEnergy: 0n,
        paidCost: 5_850_000n,
        activationCost: 0n,
        expiresAt: null,
        reason: ""
      })
      yield* sim.chain.mine()
      const delivered = yield* found(provider, "rent-1")
      expect(delivered).toMatchObject({ state: "delivered", deliveredEnergy: 65_000n })
      expect(delivered.expiresAt).toBeInstanceOf(Date)
      const again = yield* provider.order("rent-1", { ...rental, energy: 200_000n })
      expect(again).toEqual(delivered)
      yield* sim.chain.mine()
      expect(yield* sim.provider.orders).toHaveLength(1)
      expect(yield* provider.find("never-sent")).toEqual(Option.none())
    }))

  it.scopedLive("activates an inactive receiver and charges for it", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* started
      expect((yield* provider.order("act-1", { ...rental, receiver: fresh.address, activate: true })).activationCost).toBe(1_100_000n)
      yield* sim.chain.mine()
      expect(yield* found(provider, "act-1")).toMatchObject({ state: "delivered", activationCost: 1_100_000n })
      const refused = yield* Effect.flip(provider.order("act-2", { ...rental, receiver: wallet(3).address }))
      expect(refused).toMatchObject({ _tag: "ProviderRejected" })
      expect(refused.reason).toContain("NOT_ACTIVATED")
    }))

  it.scopedLive("reject: ProviderRejected, and nothing under the number", () =>
    Effect.gen(function*() {
      const { fault, provider } = yield* started
      yield* fault("reject", { reason: "sold out" })
      const refused = yield* Effect.flip(provider.order("rej-1", rental))
      expect(refused).toMatchObject({ _tag: "ProviderRejected", reason: "order rej-1: REJECTED: sold out" })
      expect(yield* provider.find("rej-1")).toEqual(Option.none())
    }))

  it.scopedLive("fail: accepted as pending, then failed with the reason and nothing paid", () =>
    Effect.gen(function*() {
      const { fault, provider, sim } = yield* started
      yield* fault("fail", { reason: "pool empty" })
      expect((yield* provider.order("fail-1", rental)).state).toBe("pending")
      yield* sim.chain.mine()
      expect(yield* found(provider, "fail-1")).toMatchObject({ state: "failed", reason: "pool empty", paidCost: 0n, deliveredEnergy: 0n })
    }))

  it.scopedLive("slow and under-deliver: pending for the given blocks, then less energy than ordered", () =>
    Effect.gen(function*() {
      const { fault, provider, sim } = yield* started
      yield* fault("slow", { blocks: 2 })
      yield* fault("under-deliver", { percent: 60 })
      yield* provider.order("slow-1", rental)
      yield* sim.chain.mine(2)
      expect((yield* found(provider, "slow-1")).state).toBe("pending")
      yield* sim.chain.mine()
      expect(yield* found(provider, "slow-1")).toMatchObject({ state: "delivered", deliveredEnergy: 39_000n, paidCost: 5_850_000n })
    }))

  it.scopedLive("unknown (504, closed connection): ProviderUnavailable, yet find shows the order delivered", () =>
    Effect.gen(function*() {
      const { fault, provider, sim } = yield* started
      yield* fault("unknown")
      const gateway = yield* Effect.flip(provider.order("unk-1", rental))
      expect(gateway).toMatchObject({ _tag: "ProviderUnavailable" })
      expect(gateway.reason).toContain("HTTP 504")
      yield* fault("unknown", { mode: "close" })
      expect((yield* Effect.flip(provider.order("unk-2", rental)))._tag).toBe("ProviderUnavailable")
      expect((yield* found(provider, "unk-1")).state).toBe("pending")
      yield* sim.chain.mine()
      expect((yield* found(provider, "unk-1")).state).toBe("delivered")
      expect((yield* found(provider, "unk-2")).state).toBe("delivered")
    }))

  it.scopedLive("a held answer times out: ProviderUnavailable, and the order exists", () =>
    Effect.gen(function*() {
      const { fault, provider } = yield* started
      yield* fault("unknown", { mode: "hold", ms: 30_000 })
      const timedOut = yield* Effect.flip(provider.order("hold-1", rental))
      expect(timedOut).toMatchObject({ _tag: "ProviderUnavailable" })
      expect(timedOut.reason).toContain("no answer within")
      expect((yield* found(provider, "hold-1")).orderId).toBe("hold-1")
    }))

  it.scopedLive("no provider listening: every call is ProviderUnavailable", () =>
    Effect.gen(function*() {
      const provider = yield* make(defaultSimProviderConfig("http://127.0.0.1:9", { requestTimeout: Duration.seconds(2) })).pipe(
        Effect.provide(FetchHttpClient.layer)
      )
      expect((yield* Effect.flip(provider.order("x-1", rental)))._tag).toBe("ProviderUnavailable")
      expect((yield* Effect.flip(provider.find("x-1")))._tag).toBe("ProviderUnavailable")
    }))

  it.scoped("expires after the rental hour (TestClock)", () =>
    Effect.gen(function*() {
      const { provider, sim } = yield* started
      yield* provider.order("exp-1", rental)
      yield* sim.chain.mine()
      const delivered = yield* found(provider, "exp-1")
      yield* TestClock.adjust("61 minutes")
      yield* sim.chain.mine()
      yield* sim.chain.mine()
      expect(yield* found(provider, "exp-1")).toMatchObject({ state: "expired", expiresAt: delivered.expiresAt })
    }))
})
