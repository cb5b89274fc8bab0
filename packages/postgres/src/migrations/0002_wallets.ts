import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE wallets (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      tenant_id bigint NOT NULL REFERENCES tenants (id),
      network text NOT NULL CHECK (network IN ('main', 'nile')),
      address text NOT NULL,
      custom_id text NOT NULL,
      balance_usdt numeric(78, 0),
      balance_trx numeric(78, 0),
      balance_block bigint NOT NULL DEFAULT 0,
      collected_usdt numeric(78, 0) NOT NULL DEFAULT 0,
      last_collected_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (tenant_id, network, custom_id),
      UNIQUE (network, address)
    )`
  // Keys sit apart from the rows every list query reads, so no query for a page can touch them.
  yield* sql`
    CREATE TABLE wallet_keys (
      wallet_id bigint PRIMARY KEY REFERENCES wallets (id),
      key_id text NOT NULL,
      sealed_key bytea NOT NULL
    )`
})
