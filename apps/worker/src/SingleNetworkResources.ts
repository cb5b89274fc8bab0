import { Chain, EnergyProvider, NetworkResources } from "@collector/core"
import { Effect, Layer } from "effect"

/**
 * The worker runs one set of loops per network, each with its own Chain and EnergyProvider;
 * the sweep operations it shares with the API (the automation's estimate) ask for them by
 * network, and here there is only the one.
 */
export const SingleNetworkResources = Layer.effect(
  NetworkResources,
  Effect.map(Effect.all([Chain, EnergyProvider]), ([chain, provider]) =>
    NetworkResources.of({ chain: () => Effect.succeed(chain), energyProvider: () => Effect.succeed(provider) }))
)
