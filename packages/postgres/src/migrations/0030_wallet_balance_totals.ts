import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Each scope's USDT and TRX held, kept as the balance ledger writes each wallet's balance: summing
 * `wallets` costs a scan of the scope (about 200 ms at 100,000 wallets), too slow for the console's
 * tenants page at a million. Sixteen shards per scope, by wallet ID, as `wallet_counts`, so two
 * workers recording one scope's balances rarely wait on the same row.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE wallet_balance_totals (
      tenant_id bigint NOT NULL,
      network text NOT NULL,
      shard smallint NOT NULL CHECK (shard BETWEEN 0 AND 15),
      usdt numeric NOT NULL,
      trx numeric NOT NULL,
      PRIMARY KEY (tenant_id, network, shard)
    )`
  yield* sql`LOCK TABLE wallets IN SHARE MODE`
  yield* sql`
    INSERT INTO wallet_balance_totals (tenant_id, network, shard, usdt, trx)
    SELECT tenant_id, network, (id % 16)::smallint, coalesce(sum(balance_usdt), 0), coalesce(sum(balance_trx), 0)
    FROM wallets GROUP BY tenant_id, network, id % 16`
})
