import type { Network } from "../kernel/Network.js"
import type { SweepTaskId } from "../sweeps/SweepTask.js"

/**
 * Where a delegation of the operator's own stake stands. It moves forward only:
 * `planned` (the delegating transaction is built and its txid recorded, before it is sent),
 * `broadcast` (sent), `confirmed` (the wallet has the energy), `reclaim_broadcast` (the
 * reclaiming transaction is built and recorded, then sent), `reclaimed` (the stake is back, or
 * the delegation never reached the chain and there is nothing to take back).
 */
export type DelegationState = "planned" | "broadcast" | "confirmed" | "reclaim_broadcast" | "reclaimed"

export const delegationStates: ReadonlyArray<DelegationState> = ["planned", "broadcast", "confirmed", "reclaim_broadcast", "reclaimed"]

/** One delegation of energy from the resource account to a sweep's wallet: at most one per task. */
export interface EnergyDelegation {
  readonly taskId: SweepTaskId
  readonly network: Network
  /** The resource account that staked the TRX (Base58Check). */
  readonly owner: string
  /** The wallet the sweep sends from (Base58Check). */
  readonly receiver: string
  /** Energy the sweep needed from the stake. */
  readonly energy: bigint
  /** SUN of staked TRX whose energy is lent (whole TRX, at least 1). */
  readonly balance: bigint
  readonly state: DelegationState
  /** The delegating transaction, recorded before it is broadcast. */
  readonly delegateTxid: string
  readonly delegateExpiration: Date
  /** The reclaiming transaction, recorded before it is broadcast; null until then. */
  readonly reclaimTxid: string | null
  readonly reclaimExpiration: Date | null
  readonly createdAt: Date
  readonly updatedAt: Date
}
