import { SqlClient, type SqlError } from "@effect/sql"
import type { Network, TenantId } from "@collector/core"
import { type Claim, DeliveryLedger, type DueEvent, type NextStep } from "@collector/core/notifications/DeliveryLedger"
import type { EventType } from "@collector/core/notifications/EventTypes"
import { Data, Effect, Layer } from "effect"

interface DueRow {
  readonly id: string
  readonly tenant_id: string
  readonly network: Network
  readonly event_type: EventType
  readonly payload: string
  readonly current_round: number
  readonly attempts: number
  readonly round_url: string | null
  readonly round_started_at: Date | null
  readonly deadline_at: Date
  readonly last_error: string
  readonly app_id: string | null
  readonly webhook_key_id: string | null
  readonly webhook_key_sealed: Uint8Array | null
  readonly open_attempt: number | null
  readonly open_started_at: Date | null
}

const toDueEvent = (row: DueRow): DueEvent => ({
  eventId: row.id,
  tenantId: row.tenant_id as TenantId,
  network: row.network,
  eventType: row.event_type,
  payload: row.payload,
  round: row.current_round,
  attempts: row.attempts,
  roundUrl: row.round_url,
  roundStartedAt: row.round_started_at,
  deadlineAt: row.deadline_at,
  lastError: row.last_error,
  app: row.app_id === null || row.webhook_key_id === null || row.webhook_key_sealed === null
    ? null
    : { appId: row.app_id, webhookKey: { keyId: row.webhook_key_id, blob: new Uint8Array(row.webhook_key_sealed) } },
  openAttempt: row.open_attempt === null || row.open_started_at === null ? null : { attempt: row.open_attempt, startedAt: row.open_started_at }
})

/** Rolls a transaction back when its guard finds the claim gone. */
class ClaimLost extends Data.TaggedError("ClaimLost") {}

const statusOf = (next: NextStep) => next._tag === "Delivered" ? "delivered" : next._tag === "Retry" ? "pending" : "failed"

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const guarded = <A>(effect: Effect.Effect<A, ClaimLost | SqlError.SqlError>) =>
    sql.withTransaction(effect).pipe(
      Effect.as(true),
      Effect.catchTag("ClaimLost", () => Effect.succeed(false)),
      Effect.orDie
    )

  const ensure = (rows: ReadonlyArray<unknown>) => rows.length === 0 ? Effect.fail(new ClaimLost()) : Effect.void

  return DeliveryLedger.of({
    // Fair claim: a tenant gets at most `perTenant` events in flight across all dispatchers
    // (those already claimed count), and ordering by rank takes every tenant's first due event
    // before anyone's second. The lock re-checks the claim conditions on the newest row version,
    // so an event claimed by another dispatcher meanwhile is never claimed twice.
    claimDue: (r) =>
      sql<DueRow>`
        WITH busy AS (
          SELECT tenant_id, count(*)::int AS n FROM events
          WHERE network = ${r.network} AND status IN ('pending', 'delivering') AND claimed_until > ${r.now}
          GROUP BY tenant_id
        ), ranked AS (
          SELECT id, tenant_id, row_number() OVER (PARTITION BY tenant_id ORDER BY next_attempt, id) AS rank
          FROM events
          WHERE network = ${r.network} AND status IN ('pending', 'delivering') AND next_attempt <= ${r.now}
            AND (claimed_until IS NULL OR claimed_until <= ${r.now})
        ), picked AS (
          SELECT e.id FROM events e
          JOIN ranked k ON k.id = e.id
          LEFT JOIN busy b ON b.tenant_id = k.tenant_id
          WHERE k.rank + coalesce(b.n, 0) <= ${r.perTenant}
            AND e.status IN ('pending', 'delivering') AND e.next_attempt <= ${r.now}
            AND (e.claimed_until IS NULL OR e.claimed_until <= ${r.now})
          ORDER BY k.rank, e.next_attempt, e.id
          LIMIT ${r.limit}
          FOR UPDATE OF e SKIP LOCKED
        ), claimed AS (
          UPDATE events e SET claimed_by = ${r.holder}, claimed_until = ${r.leaseUntil}
          FROM picked WHERE e.id = picked.id
          RETURNING e.id, e.tenant_id, e.network, e.event_type, e.payload, e.current_round, e.attempts, e.round_url,
                    e.round_started_at, e.deadline_at, e.last_error
        )
        SELECT c.id::text AS id, c.tenant_id::text AS tenant_id, c.network, c.event_type, c.payload, c.current_round,
               c.attempts, c.round_url, c.round_started_at, c.deadline_at, c.last_error,
               a.app_id::text AS app_id, a.webhook_key_id, a.webhook_key_sealed,
               o.attempt AS open_attempt, o.started_at AS open_started_at
        FROM claimed c
        LEFT JOIN apps a ON a.tenant_id = c.tenant_id AND a.network = c.network
        LEFT JOIN delivery_attempts o ON o.event_id = c.id AND o.round = c.current_round AND o.ended_at IS NULL`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.map(toDueEvent))
      ),

    startRound: (claim, round) =>
      guarded(Effect.gen(function*() {
        yield* ensure(yield* sql`
          UPDATE events SET round_url = ${round.url}, round_started_at = ${round.startedAt}, deadline_at = ${round.deadlineAt}
          WHERE id = ${claim.eventId} AND current_round = ${claim.round} AND claimed_by = ${claim.holder} AND round_url IS NULL
          RETURNING id`)
        yield* sql`
          INSERT INTO delivery_rounds (event_id, round, url, started_at, deadline_at)
          VALUES (${claim.eventId}, ${claim.round}, ${round.url}, ${round.startedAt}, ${round.deadlineAt})
          ON CONFLICT (event_id, round) DO NOTHING`
      })),

    failNewRound: (claim, round) =>
      guarded(Effect.gen(function*() {
        yield* ensure(yield* sql`
          UPDATE events SET round_url = '', round_started_at = ${round.at}, deadline_at = ${round.deadlineAt},
                 status = 'failed', next_attempt = NULL, last_error = ${round.reason}, claimed_by = NULL, claimed_until = NULL
          WHERE id = ${claim.eventId} AND current_round = ${claim.round} AND claimed_by = ${claim.holder} AND round_url IS NULL
          RETURNING id`)
        yield* sql`
          INSERT INTO delivery_rounds (event_id, round, url, started_at, deadline_at, ended_at, outcome, reason)
          VALUES (${claim.eventId}, ${claim.round}, '', ${round.at}, ${round.deadlineAt}, ${round.at}, 'failed', ${round.reason})
          ON CONFLICT (event_id, round) DO NOTHING`
      })).pipe(Effect.asVoid),

    endRound: (claim, at, reason) =>
      guarded(Effect.gen(function*() {
        yield* ensure(yield* sql`
          UPDATE events SET status = 'failed', next_attempt = NULL, last_error = ${reason}, claimed_by = NULL, claimed_until = NULL
          WHERE id = ${claim.eventId} AND current_round = ${claim.round} AND claimed_by = ${claim.holder}
          RETURNING id`)
        yield* sql`
          UPDATE delivery_rounds SET ended_at = ${at}, outcome = 'failed', reason = ${reason}
          WHERE event_id = ${claim.eventId} AND round = ${claim.round} AND ended_at IS NULL`
      })).pipe(Effect.asVoid),

    // The event's attempt count moves only from `attempt - 1` and the attempt row is unique per
    // (event, round, attempt): whoever loses either race rolls back and sends nothing.
    startAttempt: (claim, a) =>
      guarded(Effect.gen(function*() {
        yield* ensure(yield* sql`
          UPDATE events SET attempts = ${a.attempt}, status = 'delivering'
          WHERE id = ${claim.eventId} AND current_round = ${claim.round} AND claimed_by = ${claim.holder}
            AND attempts = ${a.attempt - 1} AND status IN ('pending', 'delivering')
          RETURNING id`)
        yield* ensure(yield* sql`
          INSERT INTO delivery_attempts (event_id, round, attempt, url, started_at)
          VALUES (${claim.eventId}, ${claim.round}, ${a.attempt}, ${a.url}, ${a.startedAt})
          ON CONFLICT (event_id, round, attempt) DO NOTHING
          RETURNING id`)
      })),

    finishAttempt: (claim, attempt, record, next) =>
      guarded(Effect.gen(function*() {
        yield* ensure(yield* sql`
          UPDATE delivery_attempts SET ended_at = ${record.endedAt}, duration_ms = ${record.durationMs},
                 http_status = ${record.httpStatus}, response_excerpt = ${record.responseExcerpt}, error = ${record.error},
                 outcome = ${record.delivered ? "delivered" : "failed"}
          WHERE event_id = ${claim.eventId} AND round = ${claim.round} AND attempt = ${attempt} AND ended_at IS NULL
          RETURNING id`)
        const lastError = next._tag === "RoundFailed" ? next.reason : record.error
        yield* ensure(yield* sql`
          UPDATE events SET status = ${statusOf(next)}, next_attempt = ${next._tag === "Retry" ? next.at : null},
                 last_error = CASE WHEN ${record.delivered} THEN last_error ELSE ${lastError} END,
                 delivered_at = CASE WHEN ${record.delivered} THEN ${record.endedAt}::timestamptz ELSE delivered_at END,
                 claimed_by = NULL, claimed_until = NULL
          WHERE id = ${claim.eventId} AND current_round = ${claim.round} AND claimed_by = ${claim.holder} AND attempts = ${attempt}
          RETURNING id`)
        if (next._tag !== "Retry") {
          yield* sql`
            UPDATE delivery_rounds SET ended_at = ${record.endedAt}, outcome = ${statusOf(next)},
                   reason = ${next._tag === "RoundFailed" ? next.reason : ""}
            WHERE event_id = ${claim.eventId} AND round = ${claim.round} AND ended_at IS NULL`
        }
      })).pipe(Effect.asVoid),

    release: (claim: Claim) =>
      sql`UPDATE events SET claimed_by = NULL, claimed_until = NULL WHERE id = ${claim.eventId} AND claimed_by = ${claim.holder}`.pipe(
        Effect.orDie,
        Effect.asVoid
      ),

    backlog: (network, now) =>
      sql<{ due: number; oldest: Date | null }>`
        SELECT count(*)::int AS due, min(next_attempt) AS oldest FROM events
        WHERE network = ${network} AND status IN ('pending', 'delivering') AND next_attempt <= ${now}`.pipe(
        Effect.orDie,
        Effect.map(([row]) => ({ due: row?.due ?? 0, oldestDueAt: row?.oldest ?? null }))
      )
  })
})

export const PgDeliveryLedger = Layer.effect(DeliveryLedger, make)
