import { Effect, Option } from "effect"
import type { EventId } from "../deposits/Deposit.js"
import type { Network } from "../kernel/Network.js"
import {
  type AttemptRecord,
  type ClaimRequest,
  claimOf,
  DeliveryLedger,
  type DueEvent,
  type HeldAttempt,
  type NextStep
} from "./DeliveryLedger.js"
import { roundDeadline } from "./DeliverySchedule.js"
import { NotificationRepository } from "./NotificationRepository.js"
import type { TenantScope } from "../tenants/Scope.js"

/** A claim of `holder` at `now` on nile: a 60 s lease, room for 10 events of any tenant, 20 attempts a round. */
export const claimRequest = (holder: string, now: Date, options: Partial<ClaimRequest> = {}): ClaimRequest => ({
  network: "nile",
  now,
  holder,
  leaseUntil: new Date(now.getTime() + 60_000),
  limit: 10,
  perTenant: 10,
  held: new Map(),
  maxAttempts: 20,
  roundDeadline: roundDeadline(now),
  ...options
})

/** What `claimDue` claimed, by event ID. */
export const claimed = (holder: string, now: Date, options: Partial<ClaimRequest> = {}) =>
  Effect.flatMap(DeliveryLedger, (ledger) => ledger.claimDue(claimRequest(holder, now, options))).pipe(
    Effect.map((events) => new Map(events.map((event) => [event.eventId, event])))
  )

/** Every event of the network due at `now`, claimed by `holder`. */
export const claimedAll = (network: Network, holder: string, now: Date) => claimed(holder, now, { network, limit: 1000, perTenant: 1000 })

/** The attempt a claim started (or found open) on `event`. */
export const heldBy = (holder: string, event: DueEvent): HeldAttempt => ({
  claim: claimOf(holder, event),
  attempt: event.started?.attempt ?? event.openAttempt!.attempt
})

/** How an attempt that ended at `endedAt` is recorded: a 200 when `next` is Delivered, a 500 otherwise. */
export const recordOf = (event: DueEvent, endedAt: Date, next: NextStep, fields: Partial<AttemptRecord> = {}): AttemptRecord => ({
  endedAt,
  durationMs: endedAt.getTime() - (event.started ?? event.openAttempt!).startedAt.getTime(),
  httpStatus: next._tag === "Delivered" ? 200 : 500,
  responseExcerpt: next._tag === "Delivered" ? '{"code":0}' : "boom",
  error: next._tag === "Delivered" ? "" : "HTTP 500: expected 200",
  delivered: next._tag === "Delivered",
  ...fields
})

/** The attempt `holder` started on `event` ends at `endedAt`, and the event goes on as `next` says. */
export const finished = (holder: string, event: DueEvent, endedAt: Date, next: NextStep, fields: Partial<AttemptRecord> = {}) =>
  Effect.flatMap(DeliveryLedger, (ledger) =>
    ledger.finishAttempts([{ ...heldBy(holder, event), record: recordOf(event, endedAt, next, fields), next }]))

const everything = { page: 1, pageSize: 1000 }

/** The event as the operations read it (it must exist in the scope). */
export const eventOf = (scope: TenantScope, id: EventId) =>
  Effect.map(Effect.flatMap(NotificationRepository, (r) => r.find(scope, id)), Option.getOrThrow)

/** Every attempt of the event, newest first. */
export const attemptsOf = (scope: TenantScope, id: EventId) =>
  Effect.map(Effect.flatMap(NotificationRepository, (r) => r.attempts(scope, id, everything)), (page) => Option.getOrThrow(page).items)

/** Every round of the event, newest first. */
export const roundsOf = (scope: TenantScope, id: EventId) =>
  Effect.map(Effect.flatMap(NotificationRepository, (r) => r.rounds(scope, id, everything)), (page) => Option.getOrThrow(page).items)

/** Everything the operations show of an event. */
export const stateOf = (scope: TenantScope, id: EventId) =>
  Effect.all({ event: eventOf(scope, id), attempts: attemptsOf(scope, id), rounds: roundsOf(scope, id) })
