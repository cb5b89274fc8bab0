import { Context, Data, type Effect, type Option } from "effect"
import type { Network } from "../kernel/Network.js"
import type { SweepTaskId } from "../sweeps/SweepTask.js"
import type { EnergyDelegation } from "./EnergyDelegation.js"

/** The task already has a delegation: a task is never delegated twice. */
export class DelegationExists extends Data.TaggedError("DelegationExists")<{ readonly existing: EnergyDelegation }> {}

/** The stored delegation is no longer the one the caller read: another worker moved it first. */
export class DelegationMoved extends Data.TaggedError("DelegationMoved")<{ readonly current: Option.Option<EnergyDelegation> }> {}

/**
 * Port: the ledger of delegations from the operator's own stake, one row per sweep task.
 * Storage failures are defects. Which moves are allowed is the core's rule
 * (`DelegationTransitions.ts`); the ledger writes them by compare-and-set.
 */
export class DelegationLedger extends Context.Tag("@collector/core/DelegationLedger")<
  DelegationLedger,
  {
    /** Records a new delegation (state `planned`); fails with DelegationExists if the task has one. */
    readonly plan: (delegation: EnergyDelegation) => Effect.Effect<EnergyDelegation, DelegationExists>
    readonly find: (taskId: SweepTaskId) => Effect.Effect<Option.Option<EnergyDelegation>>
    /**
     * Replaces `previous` with `next` (same task) if the stored row still has `previous`'s state
     * and txids; otherwise fails with DelegationMoved and the row as stored.
     */
    readonly update: (previous: EnergyDelegation, next: EnergyDelegation) => Effect.Effect<EnergyDelegation, DelegationMoved>
    /** The network's delegations not yet `reclaimed`, oldest first: stake still lent, or maybe lent. */
    readonly open: (network: Network, limit: number) => Effect.Effect<ReadonlyArray<EnergyDelegation>>
  }
>() {}
