import { SimEnergyProvider } from "@collector/energy"
import { adapterFor, startSimNode } from "@collector/tron-sim/testing"
import { FetchHttpClient } from "@effect/platform"
import { Context, Duration, Effect, Layer } from "effect"
import { Chain, Energy } from "@collector/core"

/*
 * Test support of the tests of core's loops here (never exported): the simulated TRON node over
 * HTTP, reached through the production node adapter, with the node's own simulated energy provider.
 */

/** The simulated node a test drives (blocks only when the test mines them). */
export class Sim extends Context.Tag("@collector/engine-tests/Sim")<Sim, Effect.Effect.Success<ReturnType<typeof startSimNode>>>() {}

/** A new simulator, `Chain` through the real adapter, and the simulator's energy provider through the real client. */
export const SimWorld = Layer.unwrapScoped(Effect.suspend(() => simWorldWith({})))

/** The same world over a simulator started with `overrides` (genesis accounts with staked TRX, say). */
export const simWorldWith = (overrides: Parameters<typeof startSimNode>[0]) =>
  Effect.gen(function*() {
    const sim = yield* startSimNode(overrides)
    const chain = Layer.effect(Chain.Chain, adapterFor(sim.url, { requestsPerSecond: 10_000 }))
    const provider = SimEnergyProvider.layer(SimEnergyProvider.defaultSimProviderConfig(sim.url, { requestTimeout: Duration.seconds(2) })).pipe(
      Layer.provide(FetchHttpClient.layer)
    )
    return Layer.mergeAll(chain, provider, Layer.succeed(Sim, sim))
  })

export type SimWorldPorts = Sim | Chain.Chain | Energy.EnergyProvider
