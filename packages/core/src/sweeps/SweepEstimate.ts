import { Effect, Metric, Schema } from "effect"
import type { ChainService } from "../chain/Chain.js"
import type { ChainRejected, ChainUnavailable } from "../chain/ChainErrors.js"
import type { AccountState, ChainParameters } from "../chain/ChainModel.js"
import type { EnergyProviderService } from "../energy/EnergyProvider.js"
import type { WalletId } from "../kernel/Ids.js"
import type { AutomationPolicy, CollectionSetting } from "../settings/Settings.js"
import type { Wallet } from "../wallets/Wallet.js"
import { decideEnergy, feeSourceOfPath, stakeOffer } from "./EnergyDecision.js"
import type { EnergyPath } from "./EnergyWaterfall.js"
import { withMargin } from "./EnergyMargin.js"
import { bandwidthLeft, energyLeft, energyToAdd } from "./ResourcesLeft.js"
import { decideRental, type RentalDecision, type RentalPlan } from "./RentalDecision.js"
import { transferBandwidth } from "./Preparation.js"
import { ineligibility } from "./SweepEligibility.js"
import { frozenReason, frozenWallets } from "./SweepMetrics.js"
import type { FeeSource, SweepMode } from "./SweepTask.js"

export interface SweepAmountRequest {
  readonly mode: SweepMode
  /** The fixed amount; null for `all`. */
  readonly amount: bigint | null
}

/** What one wallet's sweep would need and cost now. Amounts in the smallest unit, fees in SUN. */
export interface SweepEstimateItem {
  readonly walletId: WalletId
  readonly address: string
  /** `all`: the on-chain USDT balance; `fixed`: the requested amount. */
  readonly amount: bigint
  readonly sweepable: boolean
  /** Every reason it is not sweepable, joined by "; "; empty when sweepable. */
  readonly reason: string
  /** Null when no plan could be made (nothing to estimate, or no way to pay). */
  readonly feeSource: FeeSource | null
  readonly energyEstimate: bigint
  /** The estimate plus the 10% margin. */
  readonly preparedEnergy: bigint
  readonly energyAvailable: bigint
  readonly estimatedWalletTrxFee: bigint
  readonly estimatedRentalCost: bigint
  readonly estimatedActivationCost: bigint
  readonly bandwidthNeeded: bigint
  readonly bandwidthAvailable: bigint
  readonly waitsForBandwidth: boolean
  /** The path the waterfall would take; null when no plan could be made or the task would wait for the stake. */
  readonly energyPath: EnergyPath | null
  /** Why (the waterfall's reason); empty when no plan could be made. */
  readonly feeReason: string
}

export interface SweepEstimateTotal {
  readonly amount: bigint
  readonly preparedEnergy: bigint
  readonly estimatedWalletTrxFee: bigint
  readonly estimatedRentalCost: bigint
  readonly estimatedActivationCost: bigint
}

export interface SweepEstimate {
  /** Found wallets in request order. */
  readonly items: ReadonlyArray<SweepEstimateItem>
  /** Requested IDs that are not wallets of the scope, ascending. */
  readonly notFound: ReadonlyArray<WalletId>
  /** Sums over the sweepable items only. */
  readonly total: SweepEstimateTotal
}

/** The node of the scope's network did not answer: no estimate can be given. */
export class SweepEstimateUnavailable extends Schema.TaggedError<SweepEstimateUnavailable>()("SweepEstimateUnavailable", {
  network: Schema.String
}) {
  override get message() {
    return `estimate unavailable: the ${this.network} TRON node did not answer, try again later`
  }
}

export interface EstimateContext {
  readonly chain: ChainService
  readonly provider: EnergyProviderService
  readonly parameters: ChainParameters
  readonly collection: CollectionSetting
  readonly policy: AutomationPolicy
  readonly request: SweepAmountRequest
  /** The resource account that would lend to the scope's sweeps (its address), or null. */
  readonly lender: string | null
}

/** An inactive wallet gets the day's free bandwidth once activated, so that is what it will have. */
const bandwidthAvailable = (account: AccountState, parameters: ChainParameters) =>
  account.activated ? bandwidthLeft(account) : parameters.freeBandwidthPerDay

/** The shared rental decision; a provider that does not answer is a refusal the tenant reads. */
const rentalOf = (wallet: Wallet, { policy, provider }: EstimateContext) => (plan: RentalPlan) =>
  decideRental(provider, wallet.address, plan, policy.maxRentalCost).pipe(
    Effect.catchTag("ProviderUnavailable", (e) =>
      Effect.succeed<RentalDecision>({ _tag: "Refused", reason: `the energy provider "${provider.name}" did not answer: ${e.reason}`, quote: null }))
  )

/**
 * One wallet's estimate, read-only: the account at the solidified block, the chain's energy
 * estimate for the transfer to the collection address, the fee plan under the scope's policy
 * and, for a rental, the provider's quote. A node that does not answer (or answers the account
 * read with nonsense) fails the whole estimate; a refused transfer estimate is this item's reason.
 */
export const estimateWallet = (wallet: Wallet, context: EstimateContext): Effect.Effect<SweepEstimateItem, ChainUnavailable | ChainRejected> =>
  Effect.gen(function*() {
    const { chain, collection, parameters, policy, request } = context
    const account = yield* chain.account(wallet.address)
    const amount = request.mode === "all" ? account.usdt : request.amount ?? 0n
    const reasons: Array<string> = []
    const available = bandwidthAvailable(account, parameters)
    const item: { -readonly [K in keyof SweepEstimateItem]: SweepEstimateItem[K] } = {
      walletId: wallet.id,
      address: wallet.address,
      amount,
      sweepable: false,
      reason: "",
      feeSource: null,
      energyEstimate: 0n,
      preparedEnergy: 0n,
      energyAvailable: energyLeft(account),
      estimatedWalletTrxFee: 0n,
      estimatedRentalCost: 0n,
      estimatedActivationCost: 0n,
      bandwidthNeeded: transferBandwidth,
      bandwidthAvailable: available,
      waitsForBandwidth: transferBandwidth > available,
      energyPath: null,
      feeReason: ""
    }
    const finish = () => ({ ...item, sweepable: reasons.length === 0, reason: reasons.join("; ") })
    const blocked = ineligibility(wallet, collection)
    if (blocked !== null) reasons.push(blocked.message)
    if (blocked?.failure === "COLLECTION_ADDRESS_NOT_SET" || blocked?.failure === "WALLET_IS_COLLECTION_ADDRESS") return finish()
    if (account.usdt === 0n) {
      reasons.push("the wallet holds no USDT at the solidified block")
      return finish()
    }
    if (yield* chain.isBlackListed(wallet.address)) {
      yield* Metric.increment(frozenWallets(wallet.network, "estimate"))
      yield* Effect.logWarning("estimate: the USDT issuer has frozen a wallet").pipe(
        Effect.annotateLogs({ network: wallet.network, wallet_id: wallet.id, address: wallet.address })
      )
      reasons.push(frozenReason)
      return finish()
    }
    if (amount > account.usdt) reasons.push(`the amount ${amount} is above the wallet's USDT balance ${account.usdt}`)
    // A transfer above the balance reverts, so the fee of a fixed amount is estimated at most at the balance.
    const transferred = amount < account.usdt ? amount : account.usdt
    const estimated = yield* chain.estimateTransferEnergy({ from: wallet.address, to: collection.address, amount: transferred }).pipe(
      Effect.map((energy) => ({ energy, rejected: "" })),
      Effect.catchTag("ChainRejected", (e) => Effect.succeed({ energy: 0n, rejected: `the node could not estimate the transfer: ${e.reason}` }))
    )
    if (estimated.rejected !== "") {
      reasons.push(estimated.rejected)
      return finish()
    }
    // The same decision as preparation's (EnergyDecision.ts): own energy, own stake, rental, burn.
    const needed = withMargin(estimated.energy)
    const stake = yield* stakeOffer(chain, context.lender, account, energyToAdd(account, needed))
    const decision = yield* decideEnergy({ account, estimatedEnergy: estimated.energy, parameters, policy, stake, rentalOf: rentalOf(wallet, context), providerName: context.provider.name })
    const { choice } = decision
    item.energyEstimate = estimated.energy
    item.preparedEnergy = decision.preparedEnergy
    item.feeReason = choice.reason
    if (choice._tag === "Unpayable") reasons.push(choice.reason)
    if (choice._tag === "Pay") {
      item.energyPath = choice.path
      item.feeSource = feeSourceOfPath(choice.path)
      if (choice.path === "burn") item.estimatedWalletTrxFee = decision.burnFee
    }
    // A quote shows what the rental costs, also when its price is why the sweep cannot be paid.
    if ((choice._tag === "Unpayable" || (choice._tag === "Pay" && choice.path === "rented")) && decision.rental?.quote != null) {
      item.estimatedRentalCost = decision.rental.quote.cost
      item.estimatedActivationCost = decision.rental.quote.activationCost
    }
    return finish()
  })

export const estimateTotal = (items: ReadonlyArray<SweepEstimateItem>): SweepEstimateTotal =>
  items.filter((i) => i.sweepable).reduce((sum, i) => ({
    amount: sum.amount + i.amount,
    preparedEnergy: sum.preparedEnergy + i.preparedEnergy,
    estimatedWalletTrxFee: sum.estimatedWalletTrxFee + i.estimatedWalletTrxFee,
    estimatedRentalCost: sum.estimatedRentalCost + i.estimatedRentalCost,
    estimatedActivationCost: sum.estimatedActivationCost + i.estimatedActivationCost
  }), { amount: 0n, preparedEnergy: 0n, estimatedWalletTrxFee: 0n, estimatedRentalCost: 0n, estimatedActivationCost: 0n })
