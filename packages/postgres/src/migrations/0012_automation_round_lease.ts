import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // A claimed automation round is leased, not marked run: a worker that dies before the round's
  // end leaves the lease to run out, and the round is claimed again instead of waiting an interval.
  yield* sql`ALTER TABLE tenant_settings ADD COLUMN automation_round_claimed_until timestamptz`
})
