import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // The dispatcher's claim: the tenants with open events (one probe per tenant, skipping through
  // the index) and, per tenant, its first due events in order, without ranking the whole backlog.
  yield* sql`
    CREATE INDEX events_open_by_tenant ON events (network, tenant_id, next_attempt, id)
    WHERE status IN ('pending', 'delivering')`
  // Events currently claimed (released claims are cleared), to count each tenant's events in
  // flight across dispatchers; it only ever holds the events being delivered.
  yield* sql`CREATE INDEX events_claimed ON events (network, tenant_id) WHERE claimed_until IS NOT NULL`
})
