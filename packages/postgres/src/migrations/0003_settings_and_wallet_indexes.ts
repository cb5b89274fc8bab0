import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE tenant_settings (
      tenant_id bigint NOT NULL REFERENCES tenants (id),
      network text NOT NULL CHECK (network IN ('main', 'nile')),
      collection_address text NOT NULL DEFAULT '',
      collection_wallet_id bigint REFERENCES wallets (id),
      collection_updated_at timestamptz,
      automation_enabled boolean NOT NULL DEFAULT false,
      automation_threshold numeric(78, 0) NOT NULL DEFAULT 100000000,
      automation_interval_minutes integer NOT NULL DEFAULT 60,
      max_wallet_trx_fee numeric(78, 0) NOT NULL DEFAULT 15000000,
      max_rental_cost numeric(78, 0) NOT NULL DEFAULT 10000000,
      rental_allowed boolean NOT NULL DEFAULT false,
      automation_updated_at timestamptz,
      webhook_url text NOT NULL DEFAULT '',
      webhook_enabled boolean NOT NULL DEFAULT false,
      webhook_updated_at timestamptz,
      PRIMARY KEY (tenant_id, network)
    )`
  // The contains filter on addresses (`%x%`) needs trigrams to stay fast at a million wallets.
  yield* sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`
  yield* sql`CREATE INDEX wallets_address_trgm ON wallets USING gin (lower(address) gin_trgm_ops)`
  // Ties always sort by ID descending, so each index carries `id DESC` after its sort key.
  yield* sql`CREATE INDEX wallets_scope_created ON wallets (tenant_id, network, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX wallets_scope_usdt ON wallets (tenant_id, network, balance_usdt DESC NULLS LAST, id DESC)`
  yield* sql`CREATE INDEX wallets_scope_trx ON wallets (tenant_id, network, balance_trx DESC NULLS LAST, id DESC)`
})
