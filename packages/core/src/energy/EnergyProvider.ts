import { Context, Data, type Effect, type Option } from "effect"

/** The provider could not be reached or did not answer in time: the outcome is unknown. */
export class ProviderUnavailable extends Data.TaggedError("ProviderUnavailable")<{ readonly reason: string }> {}

/** The provider answered and refused (no stock, bad receiver, balance too low): nothing was ordered. */
export class ProviderRejected extends Data.TaggedError("ProviderRejected")<{ readonly reason: string }> {}

export interface RentalRequest {
  /** Base58Check address that receives the delegated energy. */
  readonly receiver: string
  readonly energy: bigint
  /** Also activate the receiver (only where `supportsActivation`). */
  readonly activate: boolean
  /**
   * The provider the task's quote named (`RentalQuote.provider`): a combination of providers
   * sends the order there and nowhere else, so one order number never reaches two providers.
   */
  readonly provider?: string
}

export interface RentalQuote {
  readonly energy: bigint
  /** SUN for the energy. */
  readonly cost: bigint
  /** SUN for the activation; 0 when not asked. */
  readonly activationCost: bigint
  /** How long the delegation lasts once delivered. */
  readonly durationSeconds: number
  /** Which provider quoted, when the port combines several (RankedEnergyProviders). */
  readonly provider?: string
}

export type ProviderOrderState = "pending" | "delivered" | "failed" | "expired"

export interface ProviderOrder {
  readonly orderId: string
  readonly providerOrderId: string
  readonly state: ProviderOrderState
  /** Energy the provider says it delegated (may be less than ordered). */
  readonly deliveredEnergy: bigint
  readonly paidCost: bigint
  readonly activationCost: bigint
  readonly expiresAt: Date | null
  /** Why a failed order failed; empty otherwise. */
  readonly reason: string
}

/**
 * Port: one energy rental provider for one network. `order` carries our own order number so
 * that an unanswered call can be verified with `find` instead of ordering again. Delivery is
 * checked on chain by the sweeper, never taken from the provider's word alone.
 */
export interface EnergyProviderService {
  readonly name: string
  readonly supportsActivation: boolean
  /** The smallest order the provider takes, in energy. */
  readonly minimumEnergy: bigint
  readonly quote: (request: RentalRequest) => Effect.Effect<RentalQuote, ProviderUnavailable | ProviderRejected>
  readonly order: (orderId: string, request: RentalRequest) => Effect.Effect<ProviderOrder, ProviderUnavailable | ProviderRejected>
  /** None when the provider has no order under our number (it never arrived). */
  readonly find: (orderId: string) => Effect.Effect<Option.Option<ProviderOrder>, ProviderUnavailable>
  /**
   * The sweeper saw `provider`'s order fail or deliver less on chain than it said: a combination
   * of providers rests it for a while. Single providers need not implement it.
   */
  readonly reportFault?: (provider: string, reason: string) => Effect.Effect<void>
  /** A combination of providers: each one's name and, when it rests, until when and why. */
  readonly health?: Effect.Effect<ReadonlyArray<ProviderStanding>>
}

/** One provider of a combination as the operator reads it: resting (with until when and why) or serving. */
export interface ProviderStanding {
  readonly provider: string
  readonly rest: { readonly until: Date; readonly reason: string } | null
}

export class EnergyProvider extends Context.Tag("@collector/core/EnergyProvider")<EnergyProvider, EnergyProviderService>() {}
