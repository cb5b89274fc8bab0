import type { Notifications } from "@collector/core"
import type { SqlClient, Statement } from "@effect/sql"
import { Effect } from "effect"

/** The columns the core's event fills; every delivery column starts as the table's defaults say: pending, round 1, no attempt yet. */
const eventRow = (event: Notifications.OutboxEvent) => ({
  id: event.id,
  tenant_id: event.tenantId,
  network: event.network,
  event_type: event.eventType,
  deposit_id: event.deposit?.id ?? null,
  revision: event.deposit?.revision ?? null,
  payload: event.payload,
  next_attempt: event.dueAt,
  deadline_at: event.deadlineAt,
  created_at: event.createdAt
})

/**
 * The one writer of the `events` table: stores the events the core built, in the caller's
 * transaction (the one that makes the state change they report).
 */
export const insertEvents = (sql: SqlClient.SqlClient, events: ReadonlyArray<Notifications.OutboxEvent>) =>
  events.length === 0 ? Effect.void : sql`INSERT INTO events ${sql.insert(events.map(eventRow))}`.pipe(Effect.asVoid)

/**
 * The same write as a part of the caller's statement, a data-modifying WITH query: the event is
 * stored once for each row the earlier WITH query `after` returns, so together with the state
 * change it reports or not at all, in one statement (one round trip, no transaction to open).
 * The parameters take the columns' types from the INSERT's target list.
 */
export const insertEventAfter = (sql: SqlClient.SqlClient, event: Notifications.OutboxEvent, after: string): Statement.Fragment => {
  const row = eventRow(event)
  const columns = Object.keys(row) as Array<keyof typeof row>
  // The column names are this module's constants.
  return sql`INSERT INTO events (${sql.unsafe(columns.join(", "))}) SELECT ${sql.csv(columns.map((column) => sql`${row[column]}`))} FROM ${sql(after)}`
}
