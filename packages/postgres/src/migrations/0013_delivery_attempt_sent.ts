import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // When an attempt's request went out. An open attempt without it was never sent: a worker
  // that stopped or died before sending withdraws it (or the next claimer does) instead of
  // counting it as failed. Only open attempts' marks are ever read.
  yield* sql`ALTER TABLE delivery_attempts ADD COLUMN sent_at timestamptz`
  // Attempts open now were started by workers that did not mark their requests: they may have
  // been sent, so they keep counting as before. Closed ones are never read again for this.
  yield* sql`UPDATE delivery_attempts SET sent_at = started_at WHERE ended_at IS NULL`
  // The same for a writer that does not know the mark (a worker of the previous version still
  // running during an upgrade): its attempts count as sent. The claim writes NULL explicitly.
  yield* sql`ALTER TABLE delivery_attempts ALTER COLUMN sent_at SET DEFAULT now()`
})
