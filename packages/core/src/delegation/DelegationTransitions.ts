import type { DelegationState, EnergyDelegation } from "./EnergyDelegation.js"

/**
 * The moves a delegation may make. A state may repeat with a new transaction (`planned` or
 * `reclaim_broadcast` rebuilt after the recorded one expired unseen); `broadcast` may fall back
 * to `planned` for the same reason. `planned` and `broadcast` may end as `reclaimed` without a
 * reclaim when the chain shows the delegation never landed.
 */
const allowed: Readonly<Record<DelegationState, ReadonlyArray<DelegationState>>> = {
  // Straight to confirmed when a crash came between the broadcast and its record: the chain has it.
  planned: ["planned", "broadcast", "confirmed", "reclaimed"],
  broadcast: ["planned", "confirmed", "reclaimed"],
  confirmed: ["reclaim_broadcast"],
  reclaim_broadcast: ["reclaim_broadcast", "reclaimed"],
  reclaimed: []
}

export const canMove = (from: DelegationState, to: DelegationState): boolean => allowed[from].includes(to)

/** Why `next` may not follow `previous`, or undefined when it may. */
export const transitionProblem = (previous: EnergyDelegation, next: EnergyDelegation): string | undefined => {
  if (next.taskId !== previous.taskId) return `a delegation cannot change task (${previous.taskId} to ${next.taskId})`
  if (next.owner !== previous.owner || next.receiver !== previous.receiver || next.balance !== previous.balance || next.network !== previous.network) {
    return `delegation of task ${previous.taskId}: owner, receiver, network and balance are fixed once planned`
  }
  if (!canMove(previous.state, next.state)) return `delegation of task ${previous.taskId} cannot move from ${previous.state} to ${next.state}`
  if (next.state === "reclaim_broadcast" && next.reclaimTxid === null) return `delegation of task ${previous.taskId}: a reclaim is recorded with its txid`
  return undefined
}
