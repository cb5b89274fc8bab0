import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** The operator console's fee figures: every tenant's entries of a network over a period of block times. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX fee_ledger_network_block_time ON fee_ledger (network, block_time)`
})
