import type { Notifications } from "@collector/core"
import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The one writer of the `events` table: stores the events the core built, in the caller's
 * transaction (the one that makes the state change they report). Every delivery column starts
 * as the table's defaults say: pending, round 1, no attempt yet.
 */
export const insertEvents = (sql: SqlClient.SqlClient, events: ReadonlyArray<Notifications.OutboxEvent>) =>
  events.length === 0 ? Effect.void : sql`
    INSERT INTO events ${
    sql.insert(events.map((event) => ({
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
    })))
  }`.pipe(Effect.asVoid)
