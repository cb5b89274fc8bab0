import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // The worker prunes idempotency records past their retention in batches oldest first
  // (`RecordPruning`); without this index each batch would scan the whole table.
  yield* sql`CREATE INDEX idempotency_records_created ON idempotency_records (created_at)`
})
