import { Effect, Metric, Schema } from "effect"
import type { ChainService } from "../chain/Chain.js"
import type { ChainRejected, ChainUnavailable } from "../chain/ChainErrors.js"
import type { AccountState, ChainParameters } from "../chain/ChainModel.js"
import type { EnergyProviderService } from "../energy/EnergyProvider.js"
import type { WalletId } from "../Ids.js"
import type { AutomationPolicy, CollectionSetting } from "../Settings.js"
import type { Wallet } from "../Wallet.js"
import { bandwidthLeft, energyLeft, type FeePlan, planFees } from "./FeePlan.js"
import { decideRental, type RentalPlan } from "./RentalDecision.js"
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
}

const feeSourceOf = (plan: FeePlan): FeeSource | null =>
  plan._tag === "Resources" ? "resources" : plan._tag === "WalletTrx" ? "wallet_trx" : plan._tag === "Rental" ? "rental" : null

/** An inactive wallet gets the day's free bandwidth once activated, so that is what it will have. */
const bandwidthAvailable = (account: AccountState, parameters: ChainParameters) =>
  account.activated ? bandwidthLeft(account) : parameters.freeBandwidthPerDay

/** What a Rental plan would cost, and why it would be refused (empty when it would not). */
const rentalCosts = (wallet: Wallet, plan: RentalPlan, { policy, provider }: EstimateContext) =>
  decideRental(provider, wallet.address, plan, policy.maxRentalCost).pipe(
    Effect.map((decision) => ({
      cost: decision.quote?.cost ?? 0n,
      activationCost: decision.quote?.activationCost ?? 0n,
      reason: decision._tag === "Refused" ? decision.reason : ""
    })),
    Effect.catchTag("ProviderUnavailable", (e) =>
      Effect.succeed({ cost: 0n, activationCost: 0n, reason: `the energy provider "${provider.name}" did not answer: ${e.reason}` }))
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
      waitsForBandwidth: transferBandwidth > available
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
    const plan = planFees({ account, estimatedEnergy: estimated.energy, parameters, policy })
    item.energyEstimate = estimated.energy
    item.preparedEnergy = plan.preparedEnergy
    item.feeSource = feeSourceOf(plan)
    if (plan._tag === "Unpayable") reasons.push(plan.reason)
    if (plan._tag === "WalletTrx") item.estimatedWalletTrxFee = plan.walletTrxFee
    if (plan._tag === "Rental") {
      const rental = yield* rentalCosts(wallet, plan, context)
      item.estimatedRentalCost = rental.cost
      item.estimatedActivationCost = rental.activationCost
      if (rental.reason !== "") reasons.push(rental.reason)
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
