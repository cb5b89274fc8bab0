import { Chain, Energy, type Kernel, Sweeps } from "@collector/core"
import { SimEnergyProvider } from "@collector/energy"
import { defaultNodeConfig } from "@collector/tron-node"
import { defaultSimConfig, SimInProcess } from "@collector/tron-sim"
import { HttpClient } from "@effect/platform"
import { Context, Duration, Effect, Layer } from "effect"
import { Dice } from "./Dice.js"
import { ProviderLine } from "./faults/ProviderLine.js"
import * as OwnStake from "./OwnStake.js"
import type { AdapterPlant } from "./plants/AdapterPlant.js"
import { SimulatedNode } from "./SimulatedNode.js"
import type { PathCounts } from "./workload/PathCounts.js"

/** How many nodes serve each network: each of the node faults (lagging, forked, down) can hold a node of its own at once. */
export const nodesPerNetwork = 3

/**
 * One network of a simulated run: the simulator answering in process, and the production node
 * adapter and energy provider adapter speaking to it (the same for every worker). The node
 * adapter is `nodesPerNetwork` adapters (`SimulatedNode`), one per node of the network, behind the
 * core's `failoverChain` as production composes `TRON_<NETWORK>_NODE_URLS`. Both networks
 * run the simulator as a test network (it refuses to be mainnet); the engine of `main` reads
 * its own simulator exactly as it would read mainnet's node. Each provider adapter reaches its
 * provider over a `ProviderLine`, where calls can be lost on the way. `main` ranks two providers and has a
 * resource account (`OwnStake`) in three seeds of four, staking for energy on the genesis and
 * stored as the network's default; `nile` has one provider and no stake, so its sweeps keep
 * renting from one book (its faults, look-ups and crashes around an order as frequent as before
 * the stake came). `plant` is a defect planted
 * in both adapters (`--plant`), for the engines and the API alike.
 */
export const make = (network: Kernel.Network, seed: string, paths: PathCounts, plant?: AdapterPlant) =>
  Effect.gen(function*() {
    const base = defaultSimConfig("nile", { seed: `${seed}/${network}` })
    const lendings = network === "main" ? OwnStake.drawLendings(new Dice(seed).stream(`stake/${network}`)) : undefined
    const own = lendings === undefined ? undefined : yield* OwnStake.generate(network, lendings, base.parameters)
    const config = own === undefined ? base : { ...base, genesisAccounts: [...base.genesisAccounts, OwnStake.genesisAccount(own.stake)] }
    const sim = yield* SimInProcess.make(config)
    if (own !== undefined) yield* own.store
    const node = defaultNodeConfig(network, {
      fullNodeUrl: sim.url,
      solidityUrl: sim.url,
      usdtContract: sim.chain.config.usdtContract,
      requestTimeout: Duration.seconds(5),
      retries: 1,
      retryBaseDelay: Duration.millis(200),
      requestsPerSecond: 1_000_000
    })
    // Several nodes, each its own adapter, behind the core's failover with production's options.
    const nodes = yield* Effect.forEach(Array.from({ length: nodesPerNetwork }, (_, i) => i), (i) => SimulatedNode.make(i, network, config.genesisNumber, node, sim.client, paths))
    const { chain: realChain } = yield* Chain.failoverChain(network, nodes.map((n) => n.chainNode), Chain.defaultFailoverChainOptions)
    const providerLine = new ProviderLine(network, paths)
    const secondLine = new ProviderLine(`${network}-b`, paths, "/provider/b/v1")
    const adapter = (name: "sim" | "sim-b", line: ProviderLine) =>
      SimEnergyProvider.make(SimEnergyProvider.defaultSimProviderConfig(sim.url, { requestTimeout: Duration.seconds(5), name })).pipe(
        Effect.provide(Layer.succeed(HttpClient.HttpClient, line.wrap(sim.client)))
      )
    // `main` ranks two providers (sim-b at 80 SUN first, sim at 90), once per network and shared by every worker as the
    // adapters are; `nile` keeps one, so its order look-ups meet the look-up faults of its one line as often as before.
    const ranked = network === "main"
    const realProvider = ranked
      ? yield* Energy.rankedEnergyProviders([yield* adapter("sim", providerLine), yield* adapter("sim-b", secondLine)])
      : yield* adapter("sim", providerLine)
    const { chain, provider } = plant === undefined ? { chain: realChain, provider: realProvider } : plant({ chain: realChain, provider: realProvider, sim: sim.chain })
    return {
      network,
      sim,
      providerLine,
      /** The network's providers with the lines to them, each with faults of its own. */
      providers: ranked
        ? [{ name: "sim", book: sim.provider, line: providerLine }, { name: "sim-b", book: sim.secondProvider, line: secondLine }]
        : [{ name: "sim", book: sim.provider, line: providerLine }],
      /** The network's nodes (the failover's order), each with a fault of its own. */
      nodes: nodes.map((n) => n.node),
      /** The network's resource account, if the seed gave it one. */
      ownStake: own?.stake,
      /** The node and the ranked providers of this network, as a worker's engine reaches them. */
      adapters: Layer.succeedContext(Context.make(Chain.Chain, chain).pipe(Context.add(Energy.EnergyProvider, provider)))
    }
  })

export type SimulatedNetwork = Effect.Effect.Success<ReturnType<typeof make>>

/** The sweep operations of one network, as the API calls them (its estimate reads that network). */
export const sweepsOf = (network: SimulatedNetwork) =>
  Sweeps.Sweeps.layer.pipe(Layer.provide(Sweeps.SingleNetworkResources.layer), Layer.provide(network.adapters))
