import { SqlClient } from "@effect/sql"
import type { EventScope } from "@collector/postgres/testing"
import { Effect } from "effect"
import type { TestTenant } from "./Tenants.js"

/** The members of the notification event detail in the order the server writes them. */
export const eventKeys = [
  "network", "id", "event_type", "status", "attempts", "current_round", "next_attempt", "deadline_at", "last_error", "created_at",
  "delivered_at", "payload"
]

export const scopeOf = (tenant: TestTenant, network: "main" | "nile" = "nile"): EventScope => ({ tenantId: tenant.id, network })

const withQuery = (path: string, params: Readonly<Record<string, string>>) => {
  const query = Object.entries(params).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&")
  return query === "" ? path : `${path}?${query}`
}

export const webhooksTarget = (params: Readonly<Record<string, string>> = {}) => withQuery("/open/v1/webhooks", params)
export const eventTarget = (id: string) => `/open/v1/webhooks/${id}`
export const roundsTarget = (id: string, params: Readonly<Record<string, string>> = {}) => withQuery(`/open/v1/webhooks/${id}/rounds`, params)
export const attemptsTarget = (id: string, params: Readonly<Record<string, string>> = {}) => withQuery(`/open/v1/webhooks/${id}/attempts`, params)
export const redeliverTarget = (id: string) => `/open/v1/webhooks/${id}/redeliver`

/** The whole stored event row, delivery internals included, to prove what an operation did or did not touch. */
export const storedEvent = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<Record<string, unknown>>`SELECT *, id::text AS id, tenant_id::text AS tenant_id FROM events WHERE id = ${id}`).pipe(
      Effect.orDie,
      Effect.map((rows) => rows[0]!)
    )

export const roundRowCount = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ n: number }>`SELECT (SELECT count(*) FROM delivery_rounds WHERE event_id = ${id})::int
      + (SELECT count(*) FROM delivery_attempts WHERE event_id = ${id})::int AS n`).pipe(
      Effect.orDie,
      Effect.map((rows) => rows[0]!.n)
    )
