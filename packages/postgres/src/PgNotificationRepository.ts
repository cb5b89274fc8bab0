import { SqlClient, type Statement } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import { Notifications, type Tenants } from "@collector/core"
import { type Context, Effect, Layer, Option } from "effect"
import { type AttemptRow, eventColumns, type EventRow, type RoundRow, toAttempt, toEvent, toRound } from "./NotificationRows.js"

const eventWhere = (sql: SqlClient.SqlClient, scope: Tenants.TenantScope, query: Notifications.NotificationQuery): Statement.Fragment => {
  const clauses = [sql`e.tenant_id = ${scope.tenantId}`, sql`e.network = ${scope.network}`]
  if (query.eventType !== undefined) clauses.push(sql`e.event_type = ${query.eventType}`)
  if (query.status !== undefined) clauses.push(sql`e.status = ${query.status}`)
  return sql.and(clauses)
}

/** A page of rows plus its total, or None when the event itself is not in the scope (`found` 0). */
type Counted<R> = R & { readonly found: number; readonly total: string }

const pageOf = <R extends object, A>(rows: ReadonlyArray<Counted<R>>, present: (row: R) => A, key: keyof R) =>
  rows[0]!.found === 0
    ? Option.none()
    : Option.some({ items: rows.filter((row) => row[key] !== null).map(present), total: Number(rows[0]!.total) })

export const make: Effect.Effect<Context.Tag.Service<typeof Notifications.NotificationRepository>, never, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const columns = sql.unsafe(eventColumns)
  const scoped = (scope: Tenants.TenantScope, id: string) =>
    sql`SELECT e.* FROM events e WHERE e.id = ${id} AND e.tenant_id = ${scope.tenantId} AND e.network = ${scope.network}`

  return Notifications.NotificationRepository.of({
    // One statement, so the page and its total come from the same snapshot (as the deposit list).
    list: (scope, query) =>
      Effect.gen(function*() {
        const where = eventWhere(sql, scope, query)
        const rows = yield* sql<EventRow & { total: string }>`
          SELECT counted.total::text AS total, page.* FROM (SELECT count(*) AS total FROM events e WHERE ${where}) counted
          LEFT JOIN LATERAL (
            SELECT ${columns} FROM events e WHERE ${where}
            ORDER BY e.id DESC LIMIT ${query.pageSize} OFFSET ${(query.page - 1) * query.pageSize}
          ) page ON true`
        return { items: rows.filter((row) => row.id !== null).map(toEvent), total: Number(rows[0]!.total) }
      }).pipe(Effect.orDie),

    find: (scope, id) =>
      sql<EventRow>`SELECT ${columns} FROM events e WHERE e.id = ${id} AND e.tenant_id = ${scope.tenantId} AND e.network = ${scope.network}`.pipe(
        Effect.orDie,
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toEvent))
      ),

    // The current round without a stored row has not been started by the dispatcher yet (a new
    // event, or a re-push waiting for its first attempt): it is listed all the same, with an
    // empty URL, from when the event's round was opened, so the list always reaches current_round.
    rounds: (scope, id, query) =>
      sql<Counted<RoundRow>>`
        WITH ev AS (${scoped(scope, id)}),
        listed AS (
          SELECT r.round, r.url, r.started_at, r.deadline_at, r.ended_at, r.outcome, r.reason
          FROM delivery_rounds r JOIN ev ON r.event_id = ev.id
          UNION ALL
          SELECT ev.current_round, '', coalesce(ev.round_started_at, ev.created_at), ev.deadline_at, NULL, NULL, '' FROM ev
          WHERE NOT EXISTS (SELECT 1 FROM delivery_rounds r WHERE r.event_id = ev.id AND r.round = ev.current_round)
        )
        SELECT (SELECT count(*) FROM ev)::int AS found, (SELECT count(*) FROM listed)::text AS total, page.*
        FROM (SELECT 1) one LEFT JOIN LATERAL (
          SELECT * FROM listed ORDER BY round DESC LIMIT ${query.pageSize} OFFSET ${(query.page - 1) * query.pageSize}
        ) page ON true`.pipe(
        Effect.orDie,
        Effect.map((rows) => pageOf(rows, toRound, "round"))
      ),

    attempts: (scope, id, query) =>
      Effect.gen(function*() {
        const clauses = [sql`a.event_id = ${id}`]
        if (query.round !== undefined) clauses.push(sql`a.round = ${query.round}`)
        const where = sql.and(clauses)
        return yield* sql<Counted<AttemptRow>>`
          WITH ev AS (${scoped(scope, id)})
          SELECT (SELECT count(*) FROM ev)::int AS found, counted.total::text AS total, page.*
          FROM (SELECT count(*) AS total FROM delivery_attempts a WHERE ${where} AND EXISTS (SELECT 1 FROM ev)) counted
          LEFT JOIN LATERAL (
            SELECT a.round, a.attempt, a.url, a.started_at, a.ended_at, a.duration_ms, a.http_status, a.response_excerpt, a.error, a.outcome
            FROM delivery_attempts a WHERE ${where} AND EXISTS (SELECT 1 FROM ev)
            ORDER BY a.round DESC, a.attempt DESC LIMIT ${query.pageSize} OFFSET ${(query.page - 1) * query.pageSize}
          ) page ON true`
      }).pipe(
        Effect.orDie,
        Effect.map((rows) => pageOf(rows, toAttempt, "round"))
      ),

    // FOR UPDATE: the dispatcher claims and updates the same row, and a concurrent re-push waits
    // here and then sees the round this one started (so it is refused, never a second round).
    startRound: (scope, id, decide) =>
      sql.withTransaction(Effect.gen(function*() {
        const [row] = yield* sql<EventRow>`
          SELECT ${columns} FROM events e
          WHERE e.id = ${id} AND e.tenant_id = ${scope.tenantId} AND e.network = ${scope.network}
          FOR UPDATE`.pipe(Effect.orDie)
        if (row === undefined) return Option.none()
        const next = yield* decide(toEvent(row))
        // round_url NULL: the dispatcher fixes the URL from the configuration current when it
        // starts the round; the previous round's claim, if any, is void.
        const [saved] = yield* sql<EventRow>`
          UPDATE events e SET current_round = ${next.round}, attempts = 0, status = 'pending', next_attempt = ${next.startedAt},
            deadline_at = ${next.deadlineAt}, last_error = '', round_url = NULL, round_started_at = ${next.startedAt},
            claimed_by = NULL, claimed_until = NULL
          WHERE e.id = ${row.id}
          RETURNING ${columns}`.pipe(Effect.orDie)
        return Option.some(toEvent(saved!))
      })).pipe(Effect.catchIf((e): e is SqlError => e instanceof SqlError, Effect.die))
  })
})

export const layer = Layer.effect(Notifications.NotificationRepository, make)
