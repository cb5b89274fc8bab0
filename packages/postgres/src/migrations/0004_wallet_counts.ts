import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // An exact count of a scope's wallets costs a full index scan (about 20 ms at 100,000 wallets);
  // the unfiltered list total reads these instead. Sixteen shards per scope, so concurrent
  // creations in one scope rarely wait on the same counter row.
  yield* sql`
    CREATE TABLE wallet_counts (
      tenant_id bigint NOT NULL,
      network text NOT NULL,
      shard smallint NOT NULL CHECK (shard BETWEEN 0 AND 15),
      n bigint NOT NULL,
      PRIMARY KEY (tenant_id, network, shard)
    )`
  yield* sql`
    INSERT INTO wallet_counts (tenant_id, network, shard, n)
    SELECT tenant_id, network, 0, count(*) FROM wallets GROUP BY tenant_id, network`
})
