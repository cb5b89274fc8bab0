import { Effect, Option } from "effect"
import { type EnergyProviderService, ProviderRejected } from "./EnergyProvider.js"

/**
 * No energy provider (for `network`, when named): quotes and orders are refused, so sweeps pay
 * with the wallet's own energy and TRX or not at all; no order is ever found.
 */
export const noEnergyProvider = (network?: string): EnergyProviderService => {
  const refused = Effect.fail(new ProviderRejected({ reason: `no energy provider configured${network === undefined ? "" : ` for ${network}`}` }))
  return {
    name: "none",
    supportsActivation: false,
    minimumEnergy: 0n,
    quote: () => refused,
    order: () => refused,
    find: () => Effect.succeed(Option.none())
  }
}
