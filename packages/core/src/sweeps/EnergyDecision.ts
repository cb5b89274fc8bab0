import { Effect, Option } from "effect"
import type { ChainService } from "../chain/Chain.js"
import type { AccountResources, AccountState, ChainParameters } from "../chain/ChainModel.js"
import { stakeForEnergy } from "../delegation/StakeForEnergy.js"
import { chooseEnergyPath, type EnergyPath, payWithOwnEnergy, type StakeShortPolicy, type WaterfallChoice } from "./EnergyWaterfall.js"
import { withMargin } from "./EnergyMargin.js"
import type { RentalDecision, RentalPlan } from "./RentalDecision.js"
import { energyLeft, energyToAdd } from "./ResourcesLeft.js"
import type { FeeSource } from "./SweepTask.js"

/** The scope's fee rules the decision keeps to. */
export interface EnergyPolicy {
  readonly maxWalletTrxFee: bigint
  readonly rentalAllowed: boolean
}

/** What was decided for one sweep's energy, with the figures the task and the estimate show. */
export interface EnergyDecision {
  readonly choice: WaterfallChoice
  readonly preparedEnergy: bigint
  /** fee_limit caps the whole transfer even when lent or rented energy pays, so it always covers all of it. */
  readonly feeLimit: bigint
  /** Energy the wallet lacks now: what a delegation lends (0 when its own energy covers the transfer). */
  readonly shortfall: bigint
  /** SUN the wallet's TRX would burn for the shortfall. */
  readonly burnFee: bigint
  /** The rental asked for (null when none was: own energy or the stake covered it, or rental is not allowed). */
  readonly rental: RentalDecision | null
  readonly rentalPlan: RentalPlan
}

/** The fee source the public contract shows for a path: lent energy is the wallet's own delegated resource. */
export const feeSourceOfPath = (path: EnergyPath): FeeSource =>
  path === "own" || path === "delegated" ? "resources" : path === "rented" ? "rental" : "wallet_trx"

/**
 * No new setting: the tenant's existing policy says what happens when the own stake is short, in
 * the contract's order. Burning within max_wallet_trx_fee if the wallet can; otherwise rent if
 * rental is allowed; otherwise wait for the stake.
 */
export const stakeShortPolicy = (policy: EnergyPolicy, burnable: boolean): StakeShortPolicy =>
  burnable ? "burn" : policy.rentalAllowed ? "rent" : "wait"

/**
 * What the resource account (by address) can lend now, and the stake the shortfall needs; null
 * without an account, for an inactive wallet (java-tron refuses to delegate to it), when nothing
 * is short, or when the network reports no energy weight.
 */
export const stakeOffer = (chain: ChainService, owner: string | null, account: AccountState, shortfall: bigint) =>
  Effect.gen(function*() {
    if (owner === null || !account.activated || shortfall <= 0n) return null
    const needed = stakeForEnergy(shortfall, yield* chain.stakeTotals(owner))
    if (needed === undefined) return null
    return { available: yield* chain.delegatableEnergyStake(owner), needed }
  })

/**
 * The decision the head's resource figures settle alone: the wallet's energy covers the transfer
 * with its margin. Only an account on chain has energy (a node reports none for an unknown
 * address), and energy that covers the transfer leaves nothing to burn, lend or rent, so neither
 * the wallet's TRX nor its activation at the solidified block needs reading. None when the energy
 * falls short: then `decideEnergy` decides on the whole account.
 */
export const ownEnergyDecision = (resources: AccountResources, estimatedEnergy: bigint, parameters: ChainParameters): Option.Option<EnergyDecision> => {
  const preparedEnergy = withMargin(estimatedEnergy)
  const left = energyLeft(resources)
  if (left === 0n || left < preparedEnergy) return Option.none()
  const feeLimit = preparedEnergy * parameters.energyFee
  return Option.some({
    choice: payWithOwnEnergy(preparedEnergy),
    preparedEnergy,
    feeLimit,
    shortfall: 0n,
    burnFee: preparedEnergy * parameters.energyFee,
    rental: null,
    rentalPlan: { preparedEnergy, feeLimit, energy: energyToAdd(resources, preparedEnergy), activate: false }
  })
}

/**
 * The one energy decision of a sweep, made alike when a task is prepared and when a sweep is
 * estimated: the waterfall (`chooseEnergyPath`) over the wallet's reading, the own stake's offer
 * and, only when neither the wallet's energy, the stake nor its TRX covers it and rental is allowed, the
 * provider's answer (`rentalOf`, the shared `decideRental`). The caller handles a provider that
 * does not answer: preparation tries again later, the estimate says so.
 */
export const decideEnergy = <E, R>(input: {
  readonly account: AccountState
  readonly estimatedEnergy: bigint
  readonly parameters: ChainParameters
  readonly policy: EnergyPolicy
  readonly stake: { readonly available: bigint; readonly needed: bigint } | null
  readonly rentalOf: (plan: RentalPlan) => Effect.Effect<RentalDecision, E, R>
  /** The provider's name, for a quote that names none. */
  readonly providerName: string
}): Effect.Effect<EnergyDecision, E, R> =>
  Effect.gen(function*() {
    const { account, parameters, policy } = input
    const own = ownEnergyDecision(account, input.estimatedEnergy, parameters)
    if (Option.isSome(own)) return own.value
    const preparedEnergy = withMargin(input.estimatedEnergy)
    const feeLimit = preparedEnergy * parameters.energyFee
    const left = account.activated ? energyLeft(account) : 0n
    const shortfall = preparedEnergy > left ? preparedEnergy - left : 0n
    const burnFee = (shortfall > 0n ? shortfall : preparedEnergy) * parameters.energyFee
    const burnable = account.activated && burnFee <= policy.maxWalletTrxFee && account.trx >= burnFee
    const rentalPlan: RentalPlan = account.activated
      ? { preparedEnergy, feeLimit, energy: energyToAdd(account, preparedEnergy), activate: false }
      : { preparedEnergy, feeLimit, energy: preparedEnergy, activate: true }
    const waterfall = (rental: RentalDecision | null) =>
      chooseEnergyPath({
        energyNeeded: preparedEnergy,
        energyLeft: left,
        activated: account.activated,
        walletTrx: account.trx,
        energyFee: parameters.energyFee,
        stake: input.stake,
        rental: rental === null
          ? null
          : rental._tag === "Quoted"
          ? { _tag: "Quoted", cost: rental.quote.cost + rental.quote.activationCost, provider: rental.quote.provider ?? input.providerName }
          : { _tag: "Refused", reason: rental.reason },
        maxWalletTrxFee: policy.maxWalletTrxFee,
        whenStakeShort: stakeShortPolicy(policy, burnable)
      })
    const decided = (choice: WaterfallChoice, rental: RentalDecision | null): EnergyDecision => ({
      choice,
      preparedEnergy,
      feeLimit,
      shortfall,
      burnFee,
      rental,
      rentalPlan
    })
    // Own energy, the stake and burning come before rental and never depend on the provider's answer: no quote is asked for them.
    const first = waterfall(null)
    if (first._tag === "Pay") return decided(first, null)
    if (!policy.rentalAllowed) return decided(first, null)
    const rental = yield* input.rentalOf(rentalPlan)
    return decided(waterfall(rental), rental)
  })
