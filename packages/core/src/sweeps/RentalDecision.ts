import { Effect } from "effect"
import type { EnergyProviderService, ProviderUnavailable, RentalQuote } from "../energy/EnergyProvider.js"

/** The rental a sweep would need: the energy it lacks, and whether the provider must activate the wallet. */
export interface RentalPlan {
  readonly preparedEnergy: bigint
  readonly feeLimit: bigint
  /** Energy to rent: the shortfall (all of the prepared energy for a wallet not on chain). */
  readonly energy: bigint
  /** The wallet is not on chain yet: the provider must activate it. */
  readonly activate: boolean
}

/** Energy to order: the plan's shortfall, at least the provider's smallest order. */
export const rentalSize = (plan: RentalPlan, provider: Pick<EnergyProviderService, "minimumEnergy">): bigint =>
  plan.energy > provider.minimumEnergy ? plan.energy : provider.minimumEnergy

/** A provider's refusal as a tenant reads it, at the quote or at the order. */
export const providerRefusal = (provider: Pick<EnergyProviderService, "name">, reason: string) =>
  `the energy provider "${provider.name}" refused the rental: ${reason}`

/**
 * Whether the rental a fee plan needs can be had: `Quoted` with the provider's quote, or
 * `Refused` with the reason a tenant reads (and the quote, when it was the price that refused).
 */
export type RentalDecision =
  | { readonly _tag: "Quoted"; readonly quote: RentalQuote }
  | { readonly _tag: "Refused"; readonly reason: string; readonly quote: RentalQuote | null }

/**
 * The one rental decision of a sweep, made alike when a task is prepared and when a sweep is
 * estimated: the provider must be able to activate an inactive wallet, must quote the shortfall
 * (at least its smallest order) and the quote, activation included, must be within
 * `max_rental_cost`. A provider that does not answer is the caller's to handle: preparation
 * tries again later, the estimate says so.
 */
export const decideRental = (
  provider: EnergyProviderService,
  receiver: string,
  plan: RentalPlan,
  maxRentalCost: bigint
): Effect.Effect<RentalDecision, ProviderUnavailable> => {
  if (plan.activate && !provider.supportsActivation) {
    return Effect.succeed({
      _tag: "Refused",
      reason: `the wallet is not activated on chain and the energy provider "${provider.name}" cannot activate it`,
      quote: null
    })
  }
  return provider.quote({ receiver, energy: rentalSize(plan, provider), activate: plan.activate }).pipe(
    Effect.map((quote): RentalDecision => {
      const total = quote.cost + quote.activationCost
      return total > maxRentalCost
        ? { _tag: "Refused", reason: `the energy rental would cost ${total} SUN, above max_rental_cost ${maxRentalCost}`, quote }
        : { _tag: "Quoted", quote }
    }),
    Effect.catchTag("ProviderRejected", (e) =>
      Effect.succeed<RentalDecision>({ _tag: "Refused", reason: providerRefusal(provider, e.reason), quote: null }))
  )
}
