import { EnergyProvider, type EnergyProviderService, ProviderRejected } from "@collector/core"
import { Effect, Layer, Option } from "effect"

/**
 * No energy provider for a network (`ENERGY_PROVIDER_<NETWORK>=none`): quotes and orders are
 * refused, so the sweeper falls back to the wallet's own energy and TRX; nothing is ever found.
 */
export const make = (network: string): EnergyProviderService => {
  const refused = Effect.fail(new ProviderRejected({ reason: `no energy provider configured for ${network}` }))
  return {
    name: "none",
    supportsActivation: false,
    minimumEnergy: 0n,
    quote: () => refused,
    order: () => refused,
    find: () => Effect.succeed(Option.none())
  }
}

export const layer = (network: string): Layer.Layer<EnergyProvider> => Layer.succeed(EnergyProvider, make(network))
