import type { Deposits, Kernel } from "@collector/core"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { insertEvents } from "../EventOutbox.js"

export type SeedEventType = "deposit.confirmed" | "deposit.reverted" | "sweep.succeeded" | "sweep.failed" | "sweep.cancelled"
export type SeedDeliveryStatus = "pending" | "delivering" | "delivered" | "failed"

export interface EventScope {
  readonly tenantId: string
  readonly network: "main" | "nile"
}

/** Every other column of an event row (times as RFC 3339 text); what is left out gets a plausible value. */
export interface EventSeed {
  /** An ID already drawn from the shared sequence (a seeded deposit's event_id); otherwise a new one. */
  readonly id?: string
  readonly eventType?: SeedEventType
  readonly depositId?: string
  readonly revision?: number
  /** The stored payload: text as is, an object as its JSON, or built from the event's ID. */
  readonly payload?: string | object | ((id: string) => string | object)
  readonly status?: SeedDeliveryStatus
  readonly attempts?: number
  readonly currentRound?: number
  readonly nextAttempt?: string | null
  readonly deadlineAt?: string
  readonly lastError?: string
  readonly createdAt?: string
  readonly deliveredAt?: string | null
  readonly roundUrl?: string | null
  readonly roundStartedAt?: string | null
  readonly claimedBy?: string | null
  readonly claimedUntil?: string | null
}

/** A sweep result body in the contract's member order, for a sweep event with this ID. */
export const sweepBody = (id: string, eventType: SeedEventType, network: string) => {
  const status = eventType.slice("sweep.".length)
  return {
    event_id: id, event_type: eventType, network, task_id: id, wallet_id: "1", amount: "0", destination: "",
    txid: "", status, reason: status === "succeeded" ? "" : "seeded", actual_fee: "0"
  }
}

/**
 * Inserts one event row as the worker and the dispatcher would have left it; returns its ID. The
 * insert and the delivery state are one transaction: a dispatcher running beside the test must
 * never claim the row between them (the state written second would wipe its claim and leave its
 * started attempt orphaned, as a flaky test once showed).
 */
export const seedEvent = (scope: EventScope, seed: EventSeed = {}) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql.withTransaction(Effect.gen(function*() {
      const id = seed.id ?? (yield* sql<{ id: string }>`SELECT nextval('task_event_id_seq')::text AS id`)[0]!.id
      const eventType = seed.eventType ?? "sweep.succeeded"
      const given = typeof seed.payload === "function" ? seed.payload(id) : seed.payload
      const body = given ?? (eventType.startsWith("sweep.") ? sweepBody(id, eventType, scope.network) : { event_id: id, event_type: eventType })
      const payload = typeof body === "string" ? body : JSON.stringify(body)
      const createdAt = seed.createdAt ?? "2026-02-01T00:00:00.000Z"
      const network = scope.network
      yield* insertEvents(sql, [{
        id: id as Deposits.EventId,
        tenantId: scope.tenantId as Kernel.TenantId,
        network,
        eventType,
        deposit: null,
        payload,
        dueAt: new Date(createdAt),
        deadlineAt: new Date(seed.deadlineAt ?? "2026-02-02T00:00:00.000Z"),
        createdAt: new Date(createdAt)
      }])
      // The delivery state the dispatcher would have left: the outbox writes every event pending.
      yield* sql`
        UPDATE events SET status = ${seed.status ?? "pending"}, attempts = ${seed.attempts ?? 0}, current_round = ${seed.currentRound ?? 1},
          next_attempt = ${seed.nextAttempt === undefined ? createdAt : seed.nextAttempt}::timestamptz, last_error = ${seed.lastError ?? ""},
          delivered_at = ${seed.deliveredAt ?? null}::timestamptz, round_url = ${seed.roundUrl ?? null},
          round_started_at = ${seed.roundStartedAt ?? null}::timestamptz, claimed_by = ${seed.claimedBy ?? null},
          claimed_until = ${seed.claimedUntil ?? null}::timestamptz,
          deposit_id = ${seed.depositId ?? null}, revision = ${seed.revision ?? null}
        WHERE id = ${id}`
      return id
    }))).pipe(Effect.orDie)

export interface RoundSeed {
  readonly round: number
  readonly url?: string
  readonly startedAt?: string
  readonly deadlineAt?: string
  readonly endedAt?: string | null
  readonly outcome?: "delivered" | "failed" | null
  readonly reason?: string
}

/** One row of delivery_rounds, as the dispatcher writes it when a round starts (and ends). */
export const seedRound = (eventId: string, seed: RoundSeed) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => {
    const startedAt = seed.startedAt ?? "2026-02-01T00:00:00.000Z"
    return sql`
      INSERT INTO delivery_rounds (event_id, round, url, started_at, deadline_at, ended_at, outcome, reason)
      VALUES (${eventId}, ${seed.round}, ${seed.url ?? "https://hooks.example.com/in"}, ${startedAt}::timestamptz,
        ${seed.deadlineAt ?? new Date(Date.parse(startedAt) + 86_400_000).toISOString()}::timestamptz,
        ${seed.endedAt ?? null}::timestamptz, ${seed.outcome ?? null}, ${seed.reason ?? ""})`
  }).pipe(Effect.orDie)

export interface AttemptSeed {
  readonly round: number
  readonly attempt: number
  readonly url?: string
  readonly startedAt?: string
  readonly endedAt?: string | null
  readonly durationMs?: number | null
  readonly httpStatus?: number | null
  readonly responseExcerpt?: string
  readonly error?: string
  readonly outcome?: "delivered" | "failed" | null
}

/** One row of delivery_attempts, as the dispatcher records an attempt. */
export const seedAttempt = (eventId: string, seed: AttemptSeed) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`
      INSERT INTO delivery_attempts (event_id, round, attempt, url, started_at, ended_at, duration_ms, http_status, response_excerpt, error, outcome)
      VALUES (${eventId}, ${seed.round}, ${seed.attempt}, ${seed.url ?? "https://hooks.example.com/in"},
        ${seed.startedAt ?? "2026-02-01T00:00:00.000Z"}::timestamptz, ${seed.endedAt ?? null}::timestamptz, ${seed.durationMs ?? null},
        ${seed.httpStatus ?? null}, ${seed.responseExcerpt ?? ""}, ${seed.error ?? ""}, ${seed.outcome ?? null})`
  ).pipe(Effect.orDie)
