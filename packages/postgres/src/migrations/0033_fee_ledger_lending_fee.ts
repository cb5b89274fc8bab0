import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * What the resource account burned to lend a sweep its energy and take it back (the fees on its
 * delegating and reclaiming transactions), booked with the sweep's entry. Entries booked before
 * it paid none that was counted: 0.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE fee_ledger ADD COLUMN lending_fee numeric(78, 0) NOT NULL DEFAULT 0 CHECK (lending_fee >= 0)`
})
