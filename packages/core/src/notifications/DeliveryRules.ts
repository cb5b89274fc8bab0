import * as RowRule from "../kernel/RowRule.js"
import type { DeliveryStatus } from "./EventTypes.js"

/**
 * When a webhook event may be claimed, counted as due and taken on to its next attempt: the rules
 * of DeliveryLedger, written once. The memory driver evaluates them (`RowRule.holds`); the
 * PostgreSQL driver renders the same descriptions into its claim statement.
 */

/** The statuses of an event still to be delivered. */
export const openStatuses: ReadonlyArray<DeliveryStatus> = ["pending", "delivering"]

/** The fields of an event the claim and backlog rules read. */
export interface EventClaimFields {
  readonly status: DeliveryStatus
  readonly nextAttempt: Date | null
  readonly claimedUntil: Date | null
}

export interface AtTime {
  readonly now: Date
}

const now = RowRule.param<AtTime>("now")

/** Still to be delivered. */
export const eventOpen: RowRule.Rule<Pick<EventClaimFields, "status">, unknown> = RowRule.oneOf(
  RowRule.field<Pick<EventClaimFields, "status">>("status"),
  openStatuses
)

/** Open and due by `now`, claimed or not: what the backlog counts. */
export const eventDue: RowRule.Rule<EventClaimFields, AtTime> = RowRule.all<EventClaimFields, AtTime>(
  eventOpen,
  RowRule.compare(RowRule.field<EventClaimFields>("nextAttempt"), "<=", now)
)

/** Due, and no dispatcher's claim on it still runs at `now`: a claim may take it. */
export const eventClaimable: RowRule.Rule<EventClaimFields, AtTime> = RowRule.all<EventClaimFields, AtTime>(
  eventDue,
  RowRule.unclaimedAt(RowRule.field<EventClaimFields>("claimedUntil"), now)
)

/** The claim's lease still runs at `now`: its holder may mark the attempt sent (a lease run out may be taken over any moment). */
export const leaseHeld: RowRule.Rule<Pick<EventClaimFields, "claimedUntil">, AtTime> = RowRule.compare(
  RowRule.field<Pick<EventClaimFields, "claimedUntil">>("claimedUntil"),
  ">",
  now
)

/** The fields of a started round the continuation rule reads. */
export interface RoundFields {
  /** '' when the round ended at once for want of a usable configuration. */
  readonly roundUrl: string | null
  readonly attempts: number
  readonly deadlineAt: Date
}

export interface RoundLimits {
  readonly now: Date
  readonly maxAttempts: number
}

/**
 * A started round goes on with another attempt to its URL: it has one, has attempts left and its
 * deadline has not passed. (A round not started yet takes the tenant's configured webhook instead.)
 */
export const roundGoesOn: RowRule.Rule<RoundFields, RoundLimits> = RowRule.all<RoundFields, RoundLimits>(
  RowRule.compare(RowRule.field<RoundFields>("roundUrl"), "<>", RowRule.literal("")),
  RowRule.compare(RowRule.field<RoundFields>("attempts"), "<", RowRule.param<RoundLimits>("maxAttempts")),
  RowRule.compare(RowRule.field<RoundFields>("deadlineAt"), ">", RowRule.param<RoundLimits>("now"))
)

/** A tenant's webhook settings, read when a new round starts. */
export interface WebhookFields {
  readonly webhookEnabled: boolean
  readonly webhookUrl: string
}

/** A new round can start: the tenant's webhook is enabled and has a URL. */
export const webhookConfigured: RowRule.Rule<WebhookFields, unknown> = RowRule.all<WebhookFields, unknown>(
  RowRule.compare(RowRule.field<WebhookFields>("webhookEnabled"), "=", RowRule.literal(true)),
  RowRule.compare(RowRule.field<WebhookFields>("webhookUrl"), "<>", RowRule.literal(""))
)

/** An attempt row of the event's current round, beside the event's attempt count. */
export interface RoundAttemptFields {
  readonly attempt: number
  readonly endedAt: Date | null
  /** The event's `attempts`. */
  readonly eventAttempts: number
}

/**
 * An attempt that keeps the claim from starting another: one still open (its outcome not written),
 * or one recorded past the event's count (a start whose count was rolled back by no one).
 */
export const attemptBlocksStart: RowRule.Rule<RoundAttemptFields, unknown> = RowRule.any<RoundAttemptFields, unknown>(
  RowRule.isNull(RowRule.field<RoundAttemptFields>("endedAt")),
  RowRule.compare(RowRule.field<RoundAttemptFields>("attempt"), ">", RowRule.field<RoundAttemptFields>("eventAttempts"))
)

/** The fields of an event its claim's holder checks before each write. */
export interface ClaimHoldFields {
  readonly currentRound: number
  readonly claimedBy: string | null
  readonly attempts: number
}

export interface HeldClaim {
  readonly round: number
  readonly holder: string
}

export interface HeldAttemptRef extends HeldClaim {
  readonly attempt: number
}

const holdField = RowRule.field<ClaimHoldFields>

/** The event is still in the claim's round and `holder` still holds it: the holder may end the round. */
export const claimHeld: RowRule.Rule<ClaimHoldFields, HeldClaim> = RowRule.all<ClaimHoldFields, HeldClaim>(
  RowRule.compare(holdField("currentRound"), "=", RowRule.param<HeldClaim>("round")),
  RowRule.compare(holdField("claimedBy"), "=", RowRule.param<HeldClaim>("holder"))
)

/** Held, and still at the attempt's count: the write of that attempt (its mark, withdrawal or outcome) may go on. */
export const attemptHeld: RowRule.Rule<ClaimHoldFields, HeldAttemptRef> = RowRule.all<ClaimHoldFields, HeldAttemptRef>(
  claimHeld,
  RowRule.compare(holdField("attempts"), "=", RowRule.param<HeldAttemptRef>("attempt"))
)
