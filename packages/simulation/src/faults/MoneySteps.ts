import { Notifications, Scanning, Sweeps } from "@collector/core"
import { Effect, Layer } from "effect"
import type { ConnectionCuts, MoneyStep } from "./ConnectionCuts.js"

/** The sweeper's step a save belongs to, by the status the task was claimed in. */
const stepFrom = (status: Sweeps.SweepStatus): MoneyStep =>
  status === "pending" ? "sweep.prepare" : status === "ready" ? "sweep.sign" : status === "signed" ? "sweep.broadcast" : "sweep.settle"

const sweepSteps = (cuts: ConnectionCuts) =>
  Layer.effect(
    Sweeps.SweepRepository,
    Effect.gen(function*() {
      const real = yield* Sweeps.SweepRepository
      // A save is the step the sweeper took on the task it claimed: the claim says which (by the task's version, which the save keeps).
      const claimedIn = new Map<string, Sweeps.SweepStatus>()
      const key = (task: Sweeps.SweepTask) => `${task.id}@${task.version}`
      return Sweeps.SweepRepository.of({
        ...real,
        claim: (network, worker, now, until, limit) =>
          cuts.within("sweep.claim", real.claim(network, worker, now, until, limit)).pipe(
            Effect.tap((tasks) => tasks.forEach((task) => claimedIn.set(key(task), task.status)))
          ),
        // A save no claim of the sweeper led to (an operator's action, a reconciliation) is no step of it: not cut.
        save: (task, worker) => {
          const claimed = claimedIn.get(key(task))
          if (claimed === undefined) return real.save(task, worker)
          claimedIn.delete(key(task))
          return cuts.within(stepFrom(claimed), real.save(task, worker))
        },
        finish: (outcome, worker) => {
          claimedIn.delete(key(outcome.task))
          return cuts.within("sweep.finish", real.finish(outcome, worker))
        }
      })
    })
  )

const scanSteps = (cuts: ConnectionCuts) =>
  Layer.effect(
    Scanning.ScanLedger,
    Effect.map(Scanning.ScanLedger, (real) =>
      Scanning.ScanLedger.of({
        ...real,
        append: (network, from, blocks, tip) => cuts.within("scan.append", real.append(network, from, blocks, tip)),
        rewind: (network, from, to) => cuts.within("scan.rewind", real.rewind(network, from, to))
      }))
  )

const bookingSteps = (cuts: ConnectionCuts) =>
  Layer.effect(
    Scanning.DepositBook,
    Effect.map(Scanning.DepositBook, (real) =>
      Scanning.DepositBook.of({
        ...real,
        reserveIds: (counts) => cuts.within("deposit.reserve-ids", real.reserveIds(counts)),
        book: (network, bookings) => cuts.within("deposit.book", real.book(network, bookings)),
        revert: (network, reversal) => cuts.within("deposit.revert", real.revert(network, reversal))
      }))
  )

const deliverySteps = (cuts: ConnectionCuts) =>
  Layer.effect(
    Notifications.DeliveryLedger,
    Effect.map(Notifications.DeliveryLedger, (real) =>
      Notifications.DeliveryLedger.of({
        ...real,
        claimDue: (request) => cuts.within("delivery.claim", real.claimDue(request)),
        markSending: (attempts, at) => cuts.within("delivery.mark-sending", real.markSending(attempts, at)),
        finishAttempts: (finishes) => cuts.within("delivery.finish", real.finishAttempts(finishes)),
        withdrawAttempts: (attempts) => cuts.within("delivery.withdraw", real.withdrawAttempts(attempts)),
        failNewRound: (claim, round) => cuts.within("delivery.fail-round", real.failNewRound(claim, round)),
        endRound: (claim, at, reason) => cuts.within("delivery.end-round", real.endRound(claim, at, reason))
      }))
  )

/**
 * The store's ports with their money-moving steps marked (`ConnectionCuts.within`): the sweeper's
 * claim and each step's save, by the step the claimed status leads to (prepare, sign, broadcast,
 * settle) or its finish; the scanner's block store and rewind; the deposits' ID reservation,
 * booking and reversal; webhook delivery's claim, its attempts marked sending and their outcome.
 * Provided over the store, each replaces its port as a plant's layer does.
 */
export const moneySteps = (cuts: ConnectionCuts) =>
  Layer.mergeAll(sweepSteps(cuts), scanSteps(cuts), bookingSteps(cuts), deliverySteps(cuts))
