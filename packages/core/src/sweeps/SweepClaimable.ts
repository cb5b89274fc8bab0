import * as RowRule from "../kernel/RowRule.js"
import { type SweepStatus, terminalStatuses } from "./SweepTask.js"

/**
 * Which sweep tasks a sweeper's claim takes, written once: the memory driver evaluates the rule,
 * the PostgreSQL driver renders it into its claim statement (its order is ClaimOrder's).
 */

/** The fields of a stored task the claim rule reads; `claimedUntil` is the running claim's lease. */
export interface SweepClaimFields {
  readonly status: SweepStatus
  readonly nextStepAt: Date
  readonly claimedUntil: Date | null
}

export interface ClaimTime {
  readonly now: Date
}

/** No sweeper's claim on the task still runs at `now`. */
export const sweepUnclaimed: RowRule.Rule<Pick<SweepClaimFields, "claimedUntil">, ClaimTime> = RowRule.unclaimedAt(
  RowRule.field<Pick<SweepClaimFields, "claimedUntil">>("claimedUntil"),
  RowRule.param<ClaimTime>("now")
)

/** Unfinished, its next step due by `now`, and unclaimed: a claim may take it. */
export const sweepClaimable: RowRule.Rule<SweepClaimFields, ClaimTime> = RowRule.all<SweepClaimFields, ClaimTime>(
  RowRule.noneOf(RowRule.field<SweepClaimFields>("status"), terminalStatuses),
  RowRule.compare(RowRule.field<SweepClaimFields>("nextStepAt"), "<=", RowRule.param<ClaimTime>("now")),
  sweepUnclaimed
)

/** The fields of a stored task its holder's write checks. */
export interface SweepHoldFields {
  readonly version: number
  readonly claimedBy: string | null
}

export interface HeldTask {
  readonly version: number
  readonly holder: string
}

/**
 * A step's compare-and-set: the stored task is the version the step read and `holder` still holds
 * its claim (a claim taken over, or a step saved by someone else meanwhile, loses the write).
 */
export const sweepHeldBy: RowRule.Rule<SweepHoldFields, HeldTask> = RowRule.all<SweepHoldFields, HeldTask>(
  RowRule.compare(RowRule.field<SweepHoldFields>("version"), "=", RowRule.param<HeldTask>("version")),
  RowRule.compare(RowRule.field<SweepHoldFields>("claimedBy"), "=", RowRule.param<HeldTask>("holder"))
)
