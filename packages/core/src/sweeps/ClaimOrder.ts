import { compareIds } from "../kernel/Int64Id.js"
import type { SweepStatus, SweepTask } from "./SweepTask.js"

/**
 * Due tasks closest to the chain first: a signed transaction is broadcast, and a broadcast one
 * settled, before more are prepared or signed, so a backlog flows through instead of piling up
 * signed transactions that run out of validity before their turn. Statuses not named come last.
 */
export const claimRanks: ReadonlyArray<ReadonlyArray<SweepStatus>> = [["signed"], ["broadcast", "unknown"], ["ready"]]

export const claimRank = (status: SweepStatus): number => {
  const rank = claimRanks.findIndex((statuses) => statuses.includes(status))
  return rank === -1 ? claimRanks.length : rank
}

/** The order a claim takes due tasks in: by rank, then the oldest step, then the oldest task. */
export const byClaimOrder = (a: SweepTask, b: SweepTask): number =>
  claimRank(a.status) - claimRank(b.status) || a.nextStepAt.getTime() - b.nextStepAt.getTime() || compareIds(a.id, b.id)
