import type { AccountState, ChainParameters } from "../chain/ChainModel.js"
import type { EnergyProviderService } from "../energy/EnergyProvider.js"

/** The fee rules of the scope that a plan must keep to. */
export interface FeePolicy {
  /** Most SUN the wallet may burn for its energy shortfall. */
  readonly maxWalletTrxFee: bigint
  readonly rentalAllowed: boolean
}

/**
 * How a sweep pays for its energy, in the contract's order: the wallet's own energy, then the
 * wallet's own TRX for the whole shortfall within the cap, then one rental order. Bandwidth is
 * never paid for: a wallet without enough free or staked bandwidth waits (see `bandwidthLeft`).
 */
export type FeePlan =
  | { readonly _tag: "Resources"; readonly preparedEnergy: bigint; readonly feeLimit: bigint }
  | { readonly _tag: "WalletTrx"; readonly preparedEnergy: bigint; readonly feeLimit: bigint; readonly walletTrxFee: bigint }
  | {
    readonly _tag: "Rental"
    readonly preparedEnergy: bigint
    readonly feeLimit: bigint
    /** Energy to rent: the shortfall. */
    readonly energy: bigint
    /** The wallet is not on chain yet: the provider must activate it. */
    readonly activate: boolean
  }
  | { readonly _tag: "Unpayable"; readonly preparedEnergy: bigint; readonly reason: string }

/** The chain's estimate plus a 10% margin, rounded up. */
export const withMargin = (estimate: bigint): bigint => (estimate * 110n + 99n) / 100n

export const energyLeft = (account: Pick<AccountState, "energyLimit" | "energyUsed">): bigint => {
  const left = account.energyLimit - account.energyUsed
  return left > 0n ? left : 0n
}

/** Free plus staked bandwidth the account can spend now, in bytes. */
export const bandwidthLeft = (account: Pick<AccountState, "freeBandwidthLimit" | "freeBandwidthUsed" | "stakedBandwidthLimit" | "stakedBandwidthUsed">): bigint => {
  const free = account.freeBandwidthLimit - account.freeBandwidthUsed
  const staked = account.stakedBandwidthLimit - account.stakedBandwidthUsed
  return (free > 0n ? free : 0n) + (staked > 0n ? staked : 0n)
}

/** Energy to order for a rental plan: its shortfall, at least the provider's smallest order. */
export const rentalSize = (plan: FeePlan & { readonly _tag: "Rental" }, provider: Pick<EnergyProviderService, "minimumEnergy">): bigint =>
  plan.energy > provider.minimumEnergy ? plan.energy : provider.minimumEnergy

export const planFees = (input: {
  readonly account: AccountState
  readonly estimatedEnergy: bigint
  readonly parameters: ChainParameters
  readonly policy: FeePolicy
}): FeePlan => {
  const { account, parameters, policy } = input
  const preparedEnergy = withMargin(input.estimatedEnergy)
  // fee_limit caps the whole transfer even when delegated energy pays, so it always covers all of it.
  const feeLimit = preparedEnergy * parameters.energyFee
  if (!account.activated) {
    return policy.rentalAllowed
      ? { _tag: "Rental", preparedEnergy, feeLimit, energy: preparedEnergy, activate: true }
      : { _tag: "Unpayable", preparedEnergy, reason: "the wallet is not activated on chain and energy rental is not allowed" }
  }
  const shortfall = preparedEnergy - energyLeft(account)
  if (shortfall <= 0n) return { _tag: "Resources", preparedEnergy, feeLimit }
  const walletTrxFee = shortfall * parameters.energyFee
  if (walletTrxFee <= policy.maxWalletTrxFee && account.trx >= walletTrxFee) {
    return { _tag: "WalletTrx", preparedEnergy, feeLimit, walletTrxFee }
  }
  if (policy.rentalAllowed) return { _tag: "Rental", preparedEnergy, feeLimit, energy: shortfall, activate: false }
  const why = walletTrxFee > policy.maxWalletTrxFee
    ? `the energy shortfall would burn ${walletTrxFee} SUN, above max_wallet_trx_fee ${policy.maxWalletTrxFee}`
    : `the energy shortfall would burn ${walletTrxFee} SUN and the wallet holds ${account.trx}`
  return { _tag: "Unpayable", preparedEnergy, reason: `${why}, and energy rental is not allowed` }
}
