import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The operator's resource accounts (staked TRX lent as energy to sweeps): at most one per network
 * and tenant, a null tenant being the network's default — NULLS NOT DISTINCT makes the index hold
 * for that one too. The key columns are wallet_keys' (a sealed key or a token label, never both).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE resource_accounts (
      network text NOT NULL CHECK (network IN ('main', 'nile')),
      tenant_id bigint REFERENCES tenants (id),
      address text NOT NULL CHECK (address ~ '^T[1-9A-HJ-NP-Za-km-z]{33}$'),
      store text NOT NULL,
      key_id text,
      sealed_key bytea,
      key_label text UNIQUE,
      created_at timestamptz NOT NULL,
      CONSTRAINT resource_accounts_one_store CHECK (
        (store = 'local' AND key_id IS NOT NULL AND sealed_key IS NOT NULL AND key_label IS NULL)
        OR (store = 'pkcs11' AND key_id IS NULL AND sealed_key IS NULL AND key_label IS NOT NULL)
      )
    )`
  yield* sql`CREATE UNIQUE INDEX resource_accounts_place ON resource_accounts (network, tenant_id) NULLS NOT DISTINCT`
})
