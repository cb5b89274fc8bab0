import { Context, type Effect } from "effect"
import type { TenantId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"
import type { Sealed } from "../secrets/SecretBox.js"
import type { EventType } from "./EventTypes.js"

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
  /**
   * An attempt of this round that a worker started and never finished (its claim ran out);
   * `sent` when its request may have gone out (marked sending), false when it surely did not.
   */
  readonly openAttempt: { readonly attempt: number; readonly startedAt: Date; readonly sent: boolean } | null
  /**
   * The scope's webhook configuration as read by the claim, for an event whose round has not
   * started (`roundUrl` still null: the configuration could not start it). Null otherwise.
   */
  readonly webhook: { readonly url: string; readonly enabled: boolean } | null
  /**
   * The attempt the claim recorded as started (number, the round's URL, the claim's `now`),
   * to be sent now; null when the event cannot go on as it is (an open attempt to settle, a new
   * round without a usable configuration, a round out of attempts or past its deadline).
   */
  readonly started: { readonly attempt: number; readonly url: string; readonly startedAt: Date } | null
}

/** Who holds an event, and for which round; every write is guarded by it. */
export interface Claim {
  readonly holder: string
  readonly eventId: string
  readonly round: number
}

export const claimOf = (holder: string, event: DueEvent): Claim => ({ holder, eventId: event.eventId, round: event.round })

/** An open attempt of a claimed event: the claim and the attempt's number, the event's attempt count. */
export interface HeldAttempt {
  readonly claim: Claim
  readonly attempt: number
}

export interface ClaimRequest {
  readonly network: Network
  readonly now: Date
  readonly holder: string
  /** The claim runs out then; another dispatcher may take the event over afterwards. */
  readonly leaseUntil: Date
  readonly limit: number
  /** Most events of one tenant this dispatcher holds at once. */
  readonly perTenant: number
  /**
   * The events of each tenant this dispatcher already holds (tenants holding none may be left
   * out); they count against `perTenant`.
   */
  readonly held: ReadonlyMap<TenantId, number>
  /** A round has at most this many attempts; a round that has had them all does not go on. */
  readonly maxAttempts: number
  /** The deadline of a round that starts now. */
  readonly roundDeadline: Date
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

/** The end of one attempt and where its event goes next. */
export interface AttemptFinish extends HeldAttempt {
  readonly record: AttemptRecord
  readonly next: NextStep
}

export interface Backlog {
  readonly due: number
  readonly oldestDueAt: Date | null
}

/**
 * Port: the delivery state of events, rounds and attempts. Each operation is one transaction
 * (the batch operations one statement for the whole batch, each item judged on its own), and
 * every write after the claim checks that the claim is still held, so a dispatcher that lost
 * its claim can never move an event another one now owns.
 */
export class DeliveryLedger extends Context.Tag("@collector/core/DeliveryLedger")<
  DeliveryLedger,
  {
    /**
     * Claims due events, skipping those locked or claimed by others, fairly across tenants (at most
     * `perTenant` of a tenant held by this dispatcher, counting those it `held` already), and
     * in the same transaction records the start of the next attempt of every claimed event that
     * can go on (before anything is sent): a round not started yet starts with the webhook URL
     * configured now if it is enabled and not empty (its deadline `roundDeadline`); a started
     * round goes on while it has had fewer than `maxAttempts` attempts and its deadline is after
     * `now`; an event with an attempt still open, or one already recorded past its count, does
     * not start one. The attempt count moves from k - 1 to k only there, under the claim.
     */
    readonly claimDue: (request: ClaimRequest) => Effect.Effect<ReadonlyArray<DueEvent>>
    /**
     * Records that the requests of these attempts are going out now (`at`), for those whose claim
     * is still held and unexpired with the attempt open; returns their event IDs. Only those may
     * be sent: another dispatcher may already have taken the others over. From then on the
     * attempt counts even if it never finishes.
     */
    readonly markSending: (attempts: ReadonlyArray<HeldAttempt>, at: Date) => Effect.Effect<ReadonlyArray<string>>
    /**
     * Takes back open attempts whose requests were never marked sending, as if they had not
     * started: the attempt row goes, the event's attempt count goes back by one, it stays due
     * when it was (`next_attempt` unchanged) and its claim is released. A round the attempt
     * started stays started. Returns the event IDs withdrawn; an attempt marked sending, already
     * closed or withdrawn, or whose claim was lost is left as it is.
     */
    readonly withdrawAttempts: (attempts: ReadonlyArray<HeldAttempt>) => Effect.Effect<ReadonlyArray<string>>
    /** A round that cannot start (no usable configuration) ends at once as failed. */
    readonly failNewRound: (claim: Claim, round: { readonly at: Date; readonly deadlineAt: Date; readonly reason: string }) => Effect.Effect<void>
    /** A started round ends as failed without another attempt (its deadline passed). */
    readonly endRound: (claim: Claim, at: Date, reason: string) => Effect.Effect<void>
    /**
     * Closes each attempt, moves its event on and releases its claim. An item whose claim was
     * lost or whose attempt is already closed changes nothing, so writing a batch again after
     * an error records each attempt once.
     */
    readonly finishAttempts: (finishes: ReadonlyArray<AttemptFinish>) => Effect.Effect<void>
    /** Gives the events back without changing them. */
    readonly release: (claims: ReadonlyArray<Claim>) => Effect.Effect<void>
    /**
     * Gives back, without changing them, the network's events still claimed under one of
     * `holders`, and returns their IDs: for claims whose work was abandoned when a statement
     * failed (a claim whose reply was lost included). A dispatcher names each claim apart and
     * never reuses a name, so nothing else holds an event under one. An open attempt stays open,
     * for the next claim to settle.
     */
    readonly handBack: (network: Network, holders: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<string>>
    readonly backlog: (network: Network, now: Date) => Effect.Effect<Backlog>
  }
>() {}
