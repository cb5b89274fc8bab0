import { Effect } from "effect"
import type { Network } from "../kernel/Network.js"
import type { SweepTaskId } from "../sweeps/SweepTask.js"
import { DelegationLedger } from "./DelegationLedger.js"
import type { makeStakeLoans, ReclaimOutcome } from "./StakeLoans.js"

/**
 * One pass over the network's delegations still lent (or maybe lent), oldest first: each whose
 * task is finished is moved one step towards reclaimed. Run after every restart and on a
 * schedule, it is what makes a reclaim retried until done. A failure on one row (node down,
 * another worker's move) leaves it for the next pass and does not stop the others.
 */
export const reclaimPass = <E, R>(
  loans: ReturnType<typeof makeStakeLoans>,
  network: Network,
  taskFinished: (taskId: SweepTaskId) => Effect.Effect<boolean, E, R>,
  now: Date,
  limit: number
) =>
  Effect.gen(function*() {
    const ledger = yield* DelegationLedger
    const open = yield* ledger.open(network, limit)
    const outcomes: Array<ReclaimOutcome> = []
    for (const row of open) {
      if (row.owner !== loans.owner) continue
      const finished = yield* Effect.either(taskFinished(row.taskId))
      if (finished._tag === "Left" || !finished.right) continue
      const outcome = yield* Effect.either(loans.reclaimRow(row, now))
      if (outcome._tag === "Right") outcomes.push(outcome.right)
      else yield* Effect.logWarning("reclaiming an energy delegation failed; retried on the next pass").pipe(
        Effect.annotateLogs({ network, task_id: row.taskId, reason: String(outcome.left) })
      )
    }
    return outcomes
  })
