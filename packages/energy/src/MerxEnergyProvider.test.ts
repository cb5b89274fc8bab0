import type { Energy } from "@collector/core"
import { FetchHttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Option, Redacted } from "effect"
import { make, type MerxConfig } from "./MerxEnergyProvider.js"
import { useCatFeeServer } from "./testing/CatFeeServer.js"
import { makeMerx, merxKey, merxUrl } from "./testing/MerxServer.js"

const server = useCatFeeServer()

const config: MerxConfig = { baseUrl: merxUrl, apiKey: Redacted.make(merxKey), requestTimeout: Duration.seconds(5), maxPricePerEnergy: Option.none() }

const adapter = (overrides: Partial<MerxConfig> = {}): Effect.Effect<Energy.EnergyProviderService> =>
  make({ ...config, ...overrides }).pipe(Effect.provide(FetchHttpClient.layer))

const receiver = "TZ4UXDV5ZhNW7fb2AMSbgfAEZ7hWsnYS2g"
const rental = { receiver, energy: 65_000n, activate: false }

describe("Merx adapter", () => {
  it.live("quotes one hour from the preview's total, exactly in SUN", () =>
    Effect.gen(function*() {
      const merx = makeMerx(server, { priceSun: 84 })
      const provider = yield* adapter({ maxPricePerEnergy: Option.some(90n) })
      expect(provider).toMatchObject({ name: "merx", supportsActivation: false, minimumEnergy: 65_000n })
      // 65,000 energy at 84 SUN = 5.46 TRX.
      expect(yield* provider.quote(rental)).toEqual({ energy: 65_000n, cost: 5_460_000n, activationCost: 0n, durationSeconds: 3600 })
      expect(merx.state.previews).toEqual(["?resource=ENERGY&amount=65000&duration=3600&max_price_sun=90"])
      // Refused before any request.
      expect(yield* Effect.flip(provider.quote({ ...rental, energy: 64_999n }))).toMatchObject({ _tag: "ProviderRejected" })
      expect(yield* Effect.flip(provider.quote({ ...rental, activate: true }))).toMatchObject({ _tag: "ProviderRejected" })
      merx.state.fault = "no-providers"
      expect(yield* Effect.flip(provider.quote(rental))).toMatchObject({ _tag: "ProviderRejected" })
      merx.state.fault = "down"
      expect(yield* Effect.flip(provider.quote(rental))).toMatchObject({ _tag: "ProviderUnavailable" })
    }))

  it.live("orders a one-hour MARKET order under our number as Idempotency-Key and reads it back by Merx's id", () =>
    Effect.gen(function*() {
      const merx = makeMerx(server)
      const provider = yield* adapter()
      const placed = yield* provider.order("sweep-42", rental)
      expect(merx.state.posts).toEqual([{
        key: "sweep-42",
        body: { resource_type: "ENERGY", order_type: "MARKET", amount: 65000, duration_sec: 3600, target_address: receiver }
      }])
      expect(placed).toMatchObject({ orderId: "sweep-42", state: "pending", deliveredEnergy: 0n, paidCost: 0n })
      merx.fill(placed.providerOrderId)
      // 65,000 at 32 SUN; filled 12:05:03, one hour.
      expect(Option.getOrThrow(yield* provider.find("sweep-42"))).toEqual({
        orderId: "sweep-42",
        providerOrderId: placed.providerOrderId,
        state: "delivered",
        deliveredEnergy: 65_000n,
        paidCost: 2_080_000n,
        activationCost: 0n,
        expiresAt: new Date("2026-03-29T13:05:03.000Z"),
        reason: ""
      })
    }))

  it.live("a lost answer is recovered by the same key: the original order, one order at Merx", () =>
    Effect.gen(function*() {
      const merx = makeMerx(server)
      const provider = yield* adapter()
      merx.state.fault = "lose-answer"
      expect(yield* Effect.flip(provider.order("sweep-7", rental))).toMatchObject({ _tag: "ProviderUnavailable" })
      merx.state.fault = "none"
      const found = Option.getOrThrow(yield* provider.find("sweep-7"))
      expect(merx.state.orders.size).toBe(1)
      expect(found.providerOrderId).toBe([...merx.state.orders.keys()][0])
      expect(merx.state.posts.map((p) => p.key)).toEqual(["sweep-7", "sweep-7"])
      // Ordering again under the number is the same order.
      expect((yield* provider.order("sweep-7", rental)).providerOrderId).toBe(found.providerOrderId)
      expect(merx.state.orders.size).toBe(1)
    }))

  it.live("refusals name Merx's error; a number never sent here cannot be looked up", () =>
    Effect.gen(function*() {
      const merx = makeMerx(server)
      const refused = yield* Effect.flip((yield* adapter({ apiKey: Redacted.make("wrong") })).order("sweep-9", rental))
      expect(refused).toMatchObject({ _tag: "ProviderRejected" })
      expect(refused.reason).toContain("HTTP 401 UNAUTHORIZED: Invalid or missing API key")
      expect(merx.state.orders.size).toBe(0)
      expect(yield* Effect.flip((yield* adapter()).find("sweep-unknown"))).toMatchObject({ _tag: "ProviderUnavailable" })
      merx.state.fault = "down"
      expect(yield* Effect.flip((yield* adapter()).order("sweep-10", rental))).toMatchObject({ _tag: "ProviderUnavailable" })
    }))
})
