import { Chain, EnergyProvider, type Network, SingleNetworkResources, Sweeps } from "@collector/core"
import { SimEnergyProvider } from "@collector/energy"
import { defaultNodeConfig, TronNodeChain } from "@collector/tron-node"
import { defaultSimConfig, SimInProcess } from "@collector/tron-sim"
import { HttpClient } from "@effect/platform"
import { Context, Duration, Effect, Layer } from "effect"
import { ProviderLine } from "./faults/ProviderLine.js"
import type { AdapterPlant } from "./plants/AdapterPlant.js"
import type { PathCounts } from "./workload/PathCounts.js"

/**
 * One network of a simulated run: the simulator answering in process, and the production node
 * adapter and energy provider adapter speaking to it (the same for every worker). Both networks
 * run the simulator as a test network (it refuses to be mainnet); the engine of `main` reads
 * its own simulator exactly as it would read mainnet's node. The provider adapter reaches its
 * provider over a `ProviderLine`, where calls can be lost on the way. `plant` is a defect planted
 * in both adapters (`--plant`), for the engines and the API alike.
 */
export const make = (network: Network, seed: string, paths: PathCounts, plant?: AdapterPlant) =>
  Effect.gen(function*() {
    const sim = yield* SimInProcess.make(defaultSimConfig("nile", { seed: `${seed}/${network}` }))
    const node = defaultNodeConfig(network, {
      fullNodeUrl: sim.url,
      solidityUrl: sim.url,
      usdtContract: sim.chain.config.usdtContract,
      requestTimeout: Duration.seconds(5),
      retries: 1,
      retryBaseDelay: Duration.millis(200),
      requestsPerSecond: 1_000_000
    })
    const realChain = yield* TronNodeChain.make(node).pipe(Effect.provide(sim.layer))
    const providerLine = new ProviderLine(network, paths)
    const realProvider = yield* SimEnergyProvider.make(SimEnergyProvider.defaultSimProviderConfig(sim.url, { requestTimeout: Duration.seconds(5) })).pipe(
      Effect.provide(Layer.succeed(HttpClient.HttpClient, providerLine.wrap(sim.client)))
    )
    const { chain, provider } = plant === undefined ? { chain: realChain, provider: realProvider } : plant({ chain: realChain, provider: realProvider, sim: sim.chain })
    return {
      network,
      sim,
      providerLine,
      /** The node and the provider of this network, as a worker's engine reaches them. */
      adapters: Layer.succeedContext(Context.make(Chain, chain).pipe(Context.add(EnergyProvider, provider)))
    }
  })

export type SimulatedNetwork = Effect.Effect.Success<ReturnType<typeof make>>

/** The sweep operations of one network, as the API calls them (its estimate reads that network). */
export const sweepsOf = (network: SimulatedNetwork) =>
  Sweeps.layer.pipe(Layer.provide(SingleNetworkResources.layer), Layer.provide(network.adapters))
