import { Effect, Layer } from "effect"
import { Chain } from "../chain/Chain.js"
import { EnergyProvider } from "../energy/EnergyProvider.js"
import { NetworkResources } from "./NetworkResources.js"

/**
 * The resources of a process that serves one network with the Chain and EnergyProvider in
 * context (the engine of one network): the sweep operations it shares with the API (the
 * automation's estimate) ask for them by network, and there is only the one.
 */
export const make = Effect.map(Effect.all([Chain, EnergyProvider]), ([chain, provider]) =>
  NetworkResources.of({ chain: () => Effect.succeed(chain), energyProvider: () => Effect.succeed(provider) }))

export const layer = Layer.effect(NetworkResources, make)
