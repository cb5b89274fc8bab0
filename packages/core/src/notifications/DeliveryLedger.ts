import { Context, type Effect } from "effect"
import type { TenantId } from "../Ids"
import type { Network } from "../Network"
import type { Sealed } from "../SecretBox"
import type { EventType } from "./EventTypes"

/** An event this dispatcher holds a claim on, with what a delivery attempt needs. */
export interface DueEvent {
  readonly eventId: string
  readonly tenantId: TenantId
  readonly network: Network
  readonly eventType: EventType
  /** The exact stored JSON text; sealed as it is, never re-serialised. */
  readonly payload: string
  readonly round: number
  /** Attempts started in this round so far. */
  readonly attempts: number
  /** Null until the round starts; '' when it ended at once for want of a configuration. */
  readonly roundUrl: string | null
  readonly roundStartedAt: Date | null
  readonly deadlineAt: Date
  readonly lastError: string
  /** The app credential of the event's scope; null when it no longer exists. */
  readonly app: { readonly appId: string; readonly webhookKey: Sealed } | null
  /** An attempt of this round that a worker started and never finished (its claim ran out). */
  readonly openAttempt: { readonly attempt: number; readonly startedAt: Date } | null
}

/** Who holds an event, and for which round; every write is guarded by it. */
export interface Claim {
  readonly holder: string
  readonly eventId: string
  readonly round: number
}

export const claimOf = (holder: string, event: DueEvent): Claim => ({ holder, eventId: event.eventId, round: event.round })

export interface ClaimRequest {
  readonly network: Network
  readonly now: Date
  readonly holder: string
  /** The claim runs out then; another dispatcher may take the event over afterwards. */
  readonly leaseUntil: Date
  readonly limit: number
  /** Most events of one tenant claimed at once across all dispatchers of the network. */
  readonly perTenant: number
}

/** How one attempt ended, as recorded. */
export interface AttemptRecord {
  readonly endedAt: Date
  readonly durationMs: number
  readonly httpStatus: number | null
  readonly responseExcerpt: string
  readonly error: string
  readonly delivered: boolean
}

/** Where the event goes after an attempt. */
export type NextStep =
  | { readonly _tag: "Delivered" }
  | { readonly _tag: "Retry"; readonly at: Date }
  | { readonly _tag: "RoundFailed"; readonly reason: string }

export interface Backlog {
  readonly due: number
  readonly oldestDueAt: Date | null
}

/**
 * Port: the delivery state of events, rounds and attempts. Each operation is its own
 * transaction, and every write after the claim checks that the claim is still held, so a
 * dispatcher that lost its claim can never move an event another one now owns.
 */
export class DeliveryLedger extends Context.Tag("@collector/core/DeliveryLedger")<
  DeliveryLedger,
  {
    /** Claims due events, skipping those locked or claimed by others, fairly across tenants. */
    readonly claimDue: (request: ClaimRequest) => Effect.Effect<ReadonlyArray<DueEvent>>
    /** Fixes the round's target. False when the claim was lost. */
    readonly startRound: (claim: Claim, round: { readonly url: string; readonly startedAt: Date; readonly deadlineAt: Date }) => Effect.Effect<boolean>
    /** A round that cannot start (no usable configuration) ends at once as failed. */
    readonly failNewRound: (claim: Claim, round: { readonly at: Date; readonly deadlineAt: Date; readonly reason: string }) => Effect.Effect<void>
    /** A started round ends as failed without another attempt (its deadline passed). */
    readonly endRound: (claim: Claim, at: Date, reason: string) => Effect.Effect<void>
    /**
     * Records that attempt `attempt` starts, before anything is sent. False when the claim
     * was lost or the attempt was already recorded: then it must not be sent.
     */
    readonly startAttempt: (claim: Claim, attempt: { readonly attempt: number; readonly url: string; readonly startedAt: Date }) => Effect.Effect<boolean>
    /** Closes the attempt, moves the event on and releases the claim. */
    readonly finishAttempt: (claim: Claim, attempt: number, record: AttemptRecord, next: NextStep) => Effect.Effect<void>
    /** Gives the event back without changing it. */
    readonly release: (claim: Claim) => Effect.Effect<void>
    readonly backlog: (network: Network, now: Date) => Effect.Effect<Backlog>
  }
>() {}
