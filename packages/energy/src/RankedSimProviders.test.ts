import { Energy } from "@collector/core"
import { defaultSimConfig, SimHttp } from "@collector/tron-sim"
import { wallet } from "@collector/tron-sim/testing"
import { FetchHttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { defaultSimProviderConfig, make } from "./SimEnergyProvider.js"

/**
 * Two providers of the simulated node (`sim` at 90 SUN per energy, `sim-b` at 80 by default),
 * ranked: quotes from both, the cheaper one ordered, a refusing one rested so the next quote is
 * the other's, and every order in exactly one provider's book.
 */

const active = wallet(1)
const rental = { receiver: active.address, energy: 65_000n, activate: false }

const control = (url: string, path: string, body: unknown = {}) =>
  Effect.promise(() => fetch(`${url}/sim/provider/${path}`, { method: "POST", body: JSON.stringify(body) }).then((r) => r.json() as Promise<{ orders?: Array<unknown> }>))

const started = Effect.gen(function*() {
  const sim = yield* SimHttp.start({
    chain: defaultSimConfig("nile", { genesisAccounts: [{ address: active.address, trx: 1_000_000n }] }),
    blocks: "manual"
  }).pipe(Effect.orDie)
  const adapter = (name: "sim" | "sim-b") =>
    make(defaultSimProviderConfig(sim.url, { requestTimeout: Duration.millis(800), name })).pipe(Effect.provide(FetchHttpClient.layer))
  const ranked: Energy.EnergyProviderService = yield* Energy.rankedEnergyProviders([yield* adapter("sim"), yield* adapter("sim-b")])
  return { sim, ranked }
})

describe("two simulated providers, ranked", () => {
  it.scopedLive("orders from the cheaper, then from the other once the cheaper refuses", () =>
    Effect.gen(function*() {
      const { ranked, sim } = yield* started
      // 65,000 energy at 80 SUN.
      const quote = yield* ranked.quote(rental)
      expect(quote).toMatchObject({ cost: 5_200_000n, provider: "sim-b" })
      yield* ranked.order("task-1", { ...rental, energy: quote.energy, provider: quote.provider })
      expect((yield* control(sim.url, "b/orders")).orders).toHaveLength(1)
      expect((yield* control(sim.url, "orders")).orders).toHaveLength(0)

      yield* control(sim.url, "b/reject", { reason: "no energy available" })
      const refused = yield* Effect.flip(ranked.order("task-2", { ...rental, provider: "sim-b" }))
      expect(refused).toMatchObject({ _tag: "ProviderRejected" })
      // sim-b rests: the next task is quoted and ordered at sim, 90 SUN.
      const next = yield* ranked.quote(rental)
      expect(next).toMatchObject({ cost: 5_850_000n, provider: "sim" })
      yield* ranked.order("task-3", { ...rental, provider: next.provider })
      expect((yield* control(sim.url, "orders")).orders).toHaveLength(1)
      expect((yield* control(sim.url, "b/orders")).orders).toHaveLength(1)
    }))

  it.scopedLive("a lost answer at one provider is found there; the other is never ordered from", () =>
    Effect.gen(function*() {
      const { ranked, sim } = yield* started
      yield* control(sim.url, "b/unknown")
      const order = yield* ranked.order("task-9", { ...rental, provider: "sim-b" })
      expect(order.orderId).toBe("task-9")
      expect((yield* control(sim.url, "b/orders")).orders).toHaveLength(1)
      expect((yield* control(sim.url, "orders")).orders).toHaveLength(0)
    }))
})
