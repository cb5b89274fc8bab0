import { Energy, Sweeps } from "@collector/core"
import { defaultNodeConfig } from "@collector/tron-node"
import { startSimNode } from "@collector/tron-sim/testing"
import { expect, it } from "@effect/vitest"
import { Duration, Effect, Layer } from "effect"
import { networkResourcesLayer } from "./NetworkResourcesLive.js"

const node = (url: string) => defaultNodeConfig("nile", { fullNodeUrl: url, solidityUrl: url, requestTimeout: Duration.seconds(2), retries: 0 })

it.scoped("the API's estimate reads the network's nodes with failover: the first node down, the second answers", () =>
  Effect.gen(function*() {
    const sim = yield* startSimNode()
    yield* sim.chain.mine(3)
    // Nothing listens on port 9: refused at once.
    const layer = networkResourcesLayer({
      nodesFor: (network) => Effect.succeed(network === "nile" ? [node("http://127.0.0.1:9"), node(sim.url)] : [node(sim.url)]),
      providerFor: (network) => Layer.succeed(Energy.EnergyProvider, Energy.noEnergyProvider(network))
    })
    const head = yield* Effect.flatMap(Sweeps.NetworkResources, (resources) => Effect.flatMap(resources.chain("nile"), (chain) => chain.headBlock)).pipe(Effect.provide(layer))
    expect(head.number).toBeGreaterThanOrEqual(3n)
  }))
