import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // The default rental cap rose from 10 to 21 TRX (the core's defaultAutomationPolicy). A row whose
  // policy the tenant never set reads the core's defaults anyway; its columns are brought in line so
  // that the table says what the API shows.
  yield* sql`ALTER TABLE tenant_settings ALTER COLUMN max_rental_cost SET DEFAULT 21000000`
  yield* sql`UPDATE tenant_settings SET max_rental_cost = 21000000 WHERE automation_updated_at IS NULL`
})
