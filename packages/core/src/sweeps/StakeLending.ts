import { Effect, Option } from "effect"
import { Chain } from "../chain/Chain.js"
import { DelegationLedger } from "../delegation/DelegationLedger.js"
import type { ResourceAccount } from "../delegation/ResourceAccount.js"
import { resourceAccountFor } from "../delegation/ResourceAccountFor.js"
import { ResourceAccounts } from "../delegation/ResourceAccounts.js"
import { makeStakeLoans } from "../delegation/StakeLoans.js"
import { energyLeft, energyToAdd } from "./ResourcesLeft.js"
import { awaitBandwidth, hasBandwidth, ready } from "./Preparation.js"
import { proceed, type StepResult } from "./SweepStep.js"
import type { ChainView } from "./ChainView.js"
import type { SweeperSettings } from "./SweeperSettings.js"
import type { SweepTask } from "./SweepTask.js"

/**
 * The account that lends to the task: the one its delegation was made from when there is one
 * (the account set for the tenant may have changed since), else the one set for it now.
 */
const lenderOf = (task: SweepTask) =>
  Effect.gen(function*() {
    const row = yield* Effect.flatMap(DelegationLedger, (ledger) => ledger.find(task.id))
    if (Option.isNone(row)) return Option.map(yield* resourceAccountFor(task.network, task.tenantId), (a): ResourceAccount => a)
    const all = yield* Effect.flatMap(ResourceAccounts, (accounts) => accounts.list())
    return Option.fromNullable(all.find((a) => a.network === task.network && a.address === row.value.owner))
  })

/** Back to preparation, which decides again (the tenant's policy when the stake is short; never a second delegation). */
const prepareAgain = (task: SweepTask, now: Date, reason: string): StepResult =>
  proceed(task, now, { stage: "queued", energyPath: null, feeSource: null, reason })

/**
 * `renting` and `waiting_energy` of a delegated task: lends the energy the wallet lacks from the
 * resource account's stake through the task's one delegation (`makeStakeLoans`: planned in the
 * ledger before it is sent, so a retry or a restart carries on with it and never lends twice),
 * then waits until the wallet's account shows the energy. The stage is `renting` until the
 * delegation is sent, `waiting_energy` after.
 */
export const lendStake = (task: SweepTask, now: Date, settings: SweeperSettings, view: ChainView) =>
  Effect.gen(function*() {
    const chain = yield* Chain
    const lender = yield* lenderOf(task)
    if (Option.isNone(lender)) return prepareAgain(task, now, "the resource account that was to lend the energy is no longer set")
    const loans = makeStakeLoans(lender.value, { transactionValidity: settings.transactionValidity, landingGrace: settings.expiryMargin })
    const account = yield* chain.account(task.address)
    const needed = task.preparedEnergy ?? 0n
    const lacking = energyToAdd(account, needed)
    // Counted from the chain's head, not our clock, as a sweep's transaction is: the node judges expiration by its head.
    const chainNow = view.head.timestamp.getTime() > now.getTime() ? view.head.timestamp : now
    const outcome = yield* loans.lend({ taskId: task.id, receiver: task.address, energy: lacking > 0n ? lacking : 1n }, chainNow)
    switch (outcome._tag) {
      case "Short":
      case "Refused":
        return prepareAgain(task, now, outcome.reason)
      case "Pending":
        return proceed(task, now, { stage: outcome.delegation.state === "planned" ? "renting" : "waiting_energy", reason: outcome.reason }, settings.rentalInterval)
      case "Lent": {
        if (!account.activated || energyLeft(account) < needed) {
          return proceed(task, now, {
            stage: "waiting_energy",
            reason: `waiting for the delegated energy: ${energyLeft(account)} of ${needed} on the wallet`
          }, settings.rentalInterval)
        }
        if (!hasBandwidth(account)) return awaitBandwidth(task, now, account, settings, { stage: "waiting_energy" })
        return ready(task, now, {})
      }
    }
  })
