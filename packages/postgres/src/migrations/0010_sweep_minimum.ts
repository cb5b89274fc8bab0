import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // An automation task sweeps only at or above the threshold it was made for: a wallet emptied
  // meanwhile (by a manual sweep) is not swept for dust at a full fee.
  yield* sql`ALTER TABLE sweep_tasks ADD COLUMN minimum_amount numeric(78, 0) CHECK (minimum_amount > 0)`
})
