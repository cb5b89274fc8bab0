import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * USDT Transfer logs out of a tenant wallet in a transaction no sweep task holds: a sweep whose
 * record an asynchronous failover took away (the reconciliation pass gives the txid back to its
 * task: `restored`) or a key used outside the service (`reported`, once). One row per log: a
 * re-scan of the same block stores nothing twice.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE unaccounted_outflows (
      network text NOT NULL,
      txid text NOT NULL,
      log_index integer NOT NULL,
      block_number bigint NOT NULL,
      block_hash text NOT NULL,
      block_time timestamptz NOT NULL,
      tenant_id bigint NOT NULL REFERENCES tenants (id),
      wallet_id bigint NOT NULL REFERENCES wallets (id),
      custom_id text NOT NULL,
      address text NOT NULL,
      destination text NOT NULL,
      contract text NOT NULL,
      amount numeric(78, 0) NOT NULL CHECK (amount >= 0),
      state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'restored', 'reported')),
      task_id bigint CHECK ((state = 'restored') = (task_id IS NOT NULL)),
      PRIMARY KEY (network, txid, log_index)
    )`
  yield* sql`CREATE INDEX unaccounted_outflows_open ON unaccounted_outflows (network, block_number) WHERE state = 'open'`
})
