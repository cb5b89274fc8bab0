import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // A tenant's own floor for what counts as its deposit on a network (base units); null leaves it
  // to the network's setting. The core compares, this column only remembers.
  yield* sql`ALTER TABLE apps ADD COLUMN deposit_minimum numeric(78, 0) CHECK (deposit_minimum >= 0)`
})
