import { Effect, Either, Metric, Option } from "effect"
import type { AccountResources, AccountState } from "../chain/ChainModel.js"
import { Chain } from "../chain/Chain.js"
import { DelegationLedger } from "../delegation/DelegationLedger.js"
import { resourceAccountFor } from "../delegation/ResourceAccountFor.js"
import { EnergyProvider, type EnergyProviderService } from "../energy/EnergyProvider.js"
import { effectiveSettings } from "../settings/Settings.js"
import { SettingsRepository } from "../settings/SettingsRepository.js"
import { decideEnergy, type EnergyDecision, feeSourceOfPath, ownEnergyDecision, stakeOffer } from "./EnergyDecision.js"
import type { EnergyPath } from "./EnergyWaterfall.js"
import { withMargin } from "./EnergyMargin.js"
import { bandwidthLeft, energyToAdd } from "./ResourcesLeft.js"
import { decideRental } from "./RentalDecision.js"
import { frozenReason, frozenWallets } from "./SweepMetrics.js"
import { end, proceed, type StepResult } from "./SweepStep.js"
import type { ChainView } from "./ChainView.js"
import type { SweeperSettings } from "./SweeperSettings.js"
import type { SweepTask } from "./SweepTask.js"

/** Bytes a signed USDT transfer takes: what the wallet's free or staked bandwidth must cover. */
export const transferBandwidth = 345n

/** Our own order number for a task's one rental: derived from the task, so a retry can never make a second. */
export const rentalOrderId = (task: SweepTask) => `sweep-${task.network}-${task.id}`

/** Whether the account can pay the transfer's bandwidth now without burning TRX. */
export const hasBandwidth = (account: AccountResources) => bandwidthLeft(account) >= transferBandwidth

/** Not enough free or staked bandwidth: the task waits for it to regenerate, saying how much is left. */
export const awaitBandwidth = (task: SweepTask, now: Date, account: AccountResources, settings: SweeperSettings, changes: Partial<SweepTask>) =>
  proceed(task, now, {
    ...changes,
    reason: `waiting for free bandwidth: ${bandwidthLeft(account)} of ${transferBandwidth} bytes left`
  }, settings.bandwidthInterval)

/**
 * What preparation read of the wallet: the energy and bandwidth figures at the head and, only
 * when its energy fell short of the transfer, its TRX at the solidified block (undefined otherwise:
 * nothing is burned, lent or rented then, so the TRX was not read).
 */
export interface PreparedReading {
  readonly resources: AccountResources
  readonly trx: bigint | undefined
}

/** What preparation decided, and the reading it decided on. */
export interface Prepared {
  readonly result: StepResult
  readonly reading: PreparedReading
}

/**
 * `pending` from `queued` or `waiting_bandwidth`: fixes the amount from the balance at the
 * solidified block, estimates energy with the margin, and picks the fee source. Bandwidth is
 * waited for before anything is rented, so no rental runs out while the wallet waits.
 *
 * The node is read for what the decision needs and no more: the USDT balance and the resource
 * figures, then the estimate. The wallet's TRX and activation, the freeze list and the own
 * stake are read only when that is not enough: the energy falls short of the transfer
 * (`ownEnergyDecision`), or the estimate is refused.
 */
export const prepare = (task: SweepTask, now: Date, settings: SweeperSettings, view: ChainView) =>
  Effect.gen(function*() {
    const chain = yield* Chain
    // The pass read the solidified block before any task's reads: the balance is at least that recent.
    const [usdt, resources] = yield* Effect.all([chain.usdtBalance(task.address), chain.resources(task.address)], { concurrency: "unbounded" })
    return yield* decide(task, now, settings, view, { usdt, atBlock: view.solidified.number, resources })
  })

const decide = (
  task: SweepTask,
  now: Date,
  settings: SweeperSettings,
  view: ChainView,
  wallet: { readonly usdt: bigint; readonly atBlock: bigint; readonly resources: AccountResources }
) =>
  Effect.gen(function*() {
    const chain = yield* Chain
    const decided = (result: StepResult, trx?: bigint): Prepared => ({ result, reading: { resources: wallet.resources, trx } })
    const amount = task.mode === "all" ? wallet.usdt : task.requestedAmount!
    if (amount === 0n) return decided(end(task, now, "cancelled", "nothing to collect: the USDT balance is 0", { amount: 0n }))
    if (task.minimumAmount !== null && amount < task.minimumAmount) {
      return decided(end(task, now, "cancelled", `the balance ${amount} fell below the automation threshold ${task.minimumAmount} since the task was made`))
    }
    if (amount > wallet.usdt) {
      return decided(end(task, now, "failed", `the fixed amount ${amount} is above the balance ${wallet.usdt} at block ${wallet.atBlock}`))
    }
    const [estimate, settingsNow] = yield* Effect.all([
      Effect.either(chain.estimateTransferEnergy({ from: task.address, to: task.destination, amount })),
      Effect.flatMap(SettingsRepository, (repo) => Effect.map(repo.get({ tenantId: task.tenantId, network: task.network }), effectiveSettings))
    ], { concurrency: "unbounded" })
    if (Either.isLeft(estimate)) {
      // A frozen wallet's transfer reverts, and so does its estimate: only a refused estimate
      // asks whether the issuer froze the wallet. Nothing is rented or signed for it.
      if (!(yield* chain.isBlackListed(task.address))) return yield* Effect.fail(estimate.left)
      yield* Metric.increment(frozenWallets(task.network, "preparation"))
      yield* Effect.logWarning("sweep of a frozen wallet failed: the USDT issuer has blacklisted it").pipe(
        Effect.annotateLogs({ network: task.network, task_id: task.id, wallet_id: task.walletId, address: task.address })
      )
      return decided(end(task, now, "failed", frozenReason, { amount }))
    }
    const estimatedEnergy = estimate.right
    const policy = settingsNow.automation
    const maxWalletTrxFee = task.maxWalletTrxFee ?? policy.maxWalletTrxFee
    const provider = yield* EnergyProvider
    const own = ownEnergyDecision(wallet.resources, estimatedEnergy, view.parameters)
    // An account with energy is on chain; otherwise the solidified block says whether it is.
    const held = Option.isSome(own) ? undefined : yield* chain.trxBalance(task.address)
    const decision = Option.isSome(own) ? own.value : yield* Effect.gen(function*() {
      const account: AccountState = { address: task.address, ...held!, usdt: wallet.usdt, atBlock: wallet.atBlock, ...wallet.resources }
      const lender = yield* stakeLender(task)
      const stake = yield* stakeOffer(chain, lender, account, energyToAdd(account, withMargin(estimatedEnergy)))
      return yield* decideEnergy({
        account,
        estimatedEnergy,
        parameters: view.parameters,
        policy: { maxWalletTrxFee, rentalAllowed: policy.rentalAllowed },
        stake,
        rentalOf: (plan) => decideRental(provider, task.address, plan, policy.maxRentalCost),
        providerName: provider.name
      })
    })
    const activated = held?.activated ?? true
    const { choice } = decision
    const prepared = { amount, preparedEnergy: decision.preparedEnergy, maxWalletTrxFee, feeReason: choice.reason }
    const result = choice._tag === "Unpayable"
      ? end(task, now, "failed", choice.reason, prepared)
      : activated && !hasBandwidth(wallet.resources)
      ? awaitBandwidth(task, now, wallet.resources, settings, { ...prepared, stage: "waiting_bandwidth" })
      // The stake is short and the tenant's policy says wait: looked at again, cancelled at prepareBy.
      : choice._tag === "Wait"
      ? proceed(task, now, { ...prepared, energyPath: null, stage: "queued", reason: choice.reason }, settings.rentalInterval)
      : choose(task, now, decision, choice.path, prepared, provider)
    return decided(result, held?.trx)
  })

/**
 * The resource account that may lend to the task, or null: none set for its tenant or network,
 * or the task had its one delegation already (a task is never delegated twice).
 */
const stakeLender = (task: SweepTask) =>
  Effect.gen(function*() {
    const used = yield* Effect.flatMap(DelegationLedger, (ledger) => ledger.find(task.id))
    if (Option.isSome(used) && used.value.state === "reclaimed") return null
    return Option.match(yield* resourceAccountFor(task.network, task.tenantId), { onNone: () => null, onSome: (account) => account.address })
  })

const choose = (
  task: SweepTask,
  now: Date,
  decision: EnergyDecision,
  path: EnergyPath,
  prepared: Pick<SweepTask, "amount" | "preparedEnergy" | "maxWalletTrxFee" | "feeReason">,
  provider: EnergyProviderService
): StepResult => {
  const chosen = { ...prepared, energyPath: path, feeSource: feeSourceOfPath(path) }
  switch (path) {
    case "own":
      return ready(task, now, { ...chosen, estimatedWalletTrxFee: 0n })
    case "burn":
      return ready(task, now, { ...chosen, estimatedWalletTrxFee: decision.burnFee })
    case "delegated":
      // Lending is the `renting` stage of a delegated task (StakeLending.ts); the wallet burns nothing.
      return proceed(task, now, { ...chosen, estimatedWalletTrxFee: 0n, stage: "renting", reason: "" })
    case "rented": {
      const quote = decision.rental?._tag === "Quoted" ? decision.rental.quote : undefined
      if (quote === undefined) return end(task, now, "failed", prepared.feeReason!, prepared)
      return proceed(task, now, {
        ...chosen,
        estimatedWalletTrxFee: 0n,
        stage: "renting",
        reason: "",
        rental: {
          orderId: rentalOrderId(task),
          provider: quote.provider ?? provider.name,
          providerOrderId: null,
          quantity: quote.energy,
          estimatedCost: quote.cost,
          paidCost: 0n,
          activationCost: quote.activationCost,
          state: "ordering",
          expiresAt: null
        }
      })
    }
  }
}

/** Resources in place: `ready`, to be signed at once. */
export const ready = (task: SweepTask, now: Date, changes: Partial<SweepTask>): StepResult =>
  proceed(task, now, { ...changes, status: "ready", stage: "ready", reason: "" })
