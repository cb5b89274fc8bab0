import { Duration, Effect, Option } from "effect"
import { Chain } from "../chain/Chain.js"
import { EnergyProvider, type ProviderOrder } from "../energy/EnergyProvider.js"
import type { EnergyRental, RentalState } from "../energy/EnergyRental.js"
import { energyLeft } from "./ResourcesLeft.js"
import { awaitBandwidth, hasBandwidth, ready } from "./Preparation.js"
import { providerRefusal } from "./RentalDecision.js"
import { end, later, proceed, type StepResult } from "./SweepStep.js"
import type { SweeperSettings } from "./SweeperSettings.js"
import type { SweepTask } from "./SweepTask.js"

const fromOrder = (rental: EnergyRental, order: ProviderOrder): EnergyRental => ({
  ...rental,
  providerOrderId: order.providerOrderId,
  paidCost: order.paidCost,
  activationCost: order.activationCost,
  expiresAt: order.expiresAt,
  state: order.state
})

const withRental = (task: SweepTask, changes: Partial<EnergyRental>): Partial<SweepTask> => ({ rental: { ...task.rental!, ...changes } })

/**
 * `renting`: places the task's one order under its own number. The number is saved before the
 * call, so an unanswered call is verified by that number. When the provider cannot say (it
 * never saw the number, or it can look orders up only by its own reference), the same number is
 * sent again: the port's providers take a number at most once.
 */
export const rent = (task: SweepTask, now: Date, settings: SweeperSettings) =>
  Effect.gen(function*() {
    const provider = yield* EnergyProvider
    const rental = task.rental!
    const request = { receiver: task.address, energy: rental.quantity, activate: rental.activationCost > 0n, provider: rental.provider }
    if (rental.state === "unknown") {
      const found = yield* Effect.either(provider.find(rental.orderId))
      if (found._tag === "Right" && Option.isSome(found.right)) return placed(task, now, found.right.value, settings)
    }
    const ordered = yield* Effect.either(provider.order(rental.orderId, request))
    if (ordered._tag === "Right") return placed(task, now, ordered.right, settings)
    if (ordered.left._tag === "ProviderRejected") {
      return end(task, now, "failed", providerRefusal(provider, ordered.left.reason), withRental(task, { state: "failed" }))
    }
    return proceed(task, now, {
      ...withRental(task, { state: "unknown" }),
      reason: `energy rental result unknown, verifying order ${rental.orderId}: ${ordered.left.reason}`
    }, settings.rentalInterval)
  })

const placed = (task: SweepTask, now: Date, order: ProviderOrder, settings: SweeperSettings): StepResult =>
  proceed(task, now, { rental: fromOrder(task.rental!, order), stage: "waiting_energy", reason: "" }, order.state === "delivered" ? undefined : settings.rentalInterval)

const failedStates: ReadonlyArray<RentalState> = ["failed", "expired", "under_delivered"]

/** The order's latest state from the provider; the stored one when the provider cannot say now. */
export const refreshedRental = (task: SweepTask) =>
  Effect.gen(function*() {
    const provider = yield* EnergyProvider
    const rental = task.rental!
    if (rental.state === "delivered") return rental
    const found = yield* Effect.either(provider.find(rental.orderId))
    return found._tag === "Right" && Option.isSome(found.right) ? fromOrder(rental, found.right.value) : rental
  })

/**
 * `waiting_energy`: the energy counts once it is on chain, whatever the provider says. An order
 * that failed, expired, delivered less than the task needs, or would run out before a signed
 * transaction may still land ends the task: a rental is never renewed.
 */
export const awaitEnergy = (task: SweepTask, now: Date, settings: SweeperSettings) =>
  Effect.gen(function*() {
    const chain = yield* Chain
    const provider = yield* EnergyProvider
    const rental = yield* refreshedRental(task)
    if (failedStates.includes(rental.state)) {
      if (rental.state !== "expired") yield* provider.reportFault?.(rental.provider, `order ${rental.orderId} ${rental.state}`) ?? Effect.void
      return end(task, now, "failed", `energy rental ${rental.state.replace("_", "-")} (order ${rental.orderId})`, { rental })
    }
    if (rental.expiresAt !== null && rental.expiresAt.getTime() <= now.getTime()) {
      return end(task, now, "failed", `energy rental expired before use (order ${rental.orderId})`, { rental: { ...rental, state: "expired" } })
    }
    const account = yield* chain.account(task.address)
    const energy = energyLeft(account)
    const needed = task.preparedEnergy ?? 0n
    if (account.activated && energy >= needed) {
      // The transfer may land up to its validity after signing; energy gone by then would burn the wallet's TRX.
      if (rental.expiresAt !== null && rental.expiresAt.getTime() < now.getTime() + Duration.toMillis(settings.transactionValidity)) {
        return end(task, now, "failed", `energy rental runs out at ${rental.expiresAt.toISOString()}, too soon to sign a transfer on it (order ${rental.orderId})`, { rental })
      }
      if (!hasBandwidth(account)) return awaitBandwidth(task, now, account, settings, { rental })
      return ready(task, now, { rental })
    }
    // Not delivered yet, or delivered just now: looked at again before judging what the chain shows.
    if (rental.state !== "delivered" || task.rental!.state !== "delivered") return proceed(task, now, { rental }, settings.rentalInterval)
    // Activation shows in the solidified account only once its block is solidified (about a minute).
    if (!account.activated) return later(task, now, settings.rentalInterval)
    if (now.getTime() - task.updatedAt.getTime() < Duration.toMillis(settings.rentalInterval) * 3) {
      // A node behind the provider's may not show the delegation yet: a little grace before judging.
      return later(task, now, settings.rentalInterval)
    }
    // The provider says delivered, the chain shows less: not renewed, the task fails.
    yield* provider.reportFault?.(rental.provider, `order ${rental.orderId} under-delivered`) ?? Effect.void
    return end(task, now, "failed", `energy rental under-delivered: ${energy} of ${needed} energy on chain (order ${rental.orderId})`, {
      rental: { ...rental, state: "under_delivered" }
    })
  })
