import { Energy, Kernel, Sweeps } from "@collector/core"
import { energyProviderLayerConfig } from "@collector/energy"
import { failoverNodeChain, type NodeConfig, nodeConfigs, nodeFailoverConfig } from "@collector/tron-node"
import { FetchHttpClient, type HttpClient } from "@effect/platform"
import { type ConfigError, Context, Effect, Layer } from "effect"

export interface NetworkResourcesOptions {
  /** Each network's nodes, in order of preference; the TRON_<NETWORK>_* settings by default. */
  readonly nodesFor?: (network: Kernel.Network) => Effect.Effect<ReadonlyArray<NodeConfig>, ConfigError.ConfigError>
  /** Each network's energy provider; the ENERGY_PROVIDER_<NETWORK>* settings by default. */
  readonly providerFor?: (network: Kernel.Network) => Layer.Layer<Energy.EnergyProvider, ConfigError.ConfigError, HttpClient.HttpClient>
}

/**
 * The nodes and the energy provider of every network, for the API server's sweep estimate. Both
 * are read from the settings and built once at start, so a bad setting stops the start with its
 * message; nothing is contacted until an estimate asks. Node requests go through Effect's fetch
 * client with the adapter's own request budget (separate from the worker's). A network whose
 * provider is `none` refuses every rental quote, which the estimate reports per wallet.
 */
export const networkResourcesLayer = (options: NetworkResourcesOptions = {}): Layer.Layer<Sweeps.NetworkResources, ConfigError.ConfigError> =>
  Layer.scoped(
    Sweeps.NetworkResources,
    Effect.gen(function*() {
      // The API's sweep estimates fail over between the network's nodes as the worker does (`TRON_<NETWORK>_NODE_URLS`).
      const nodesFor = options.nodesFor ?? nodeConfigs
      const failover = yield* nodeFailoverConfig
      const providerFor = options.providerFor ?? energyProviderLayerConfig
      const built = new Map(yield* Effect.forEach(Kernel.allNetworks, (network) =>
        Effect.all({
          chain: Effect.map(Effect.flatMap(nodesFor(network), (nodes) => failoverNodeChain(nodes, failover)), (nodes) => nodes.chain),
          provider: Effect.map(Layer.build(providerFor(network)), Context.get(Energy.EnergyProvider))
        }).pipe(Effect.map((resources) => [network, resources] as const))))
      return {
        chain: (network) => Effect.succeed(built.get(network)!.chain),
        energyProvider: (network) => Effect.succeed(built.get(network)!.provider)
      }
    })
  ).pipe(Layer.provide(FetchHttpClient.layer))
