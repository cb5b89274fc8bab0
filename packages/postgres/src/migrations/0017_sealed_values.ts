import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // One known value sealed at first start: a master key that cannot open it is not this store's.
  yield* sql`
    CREATE TABLE master_key_check (
      id smallint PRIMARY KEY CHECK (id = 1),
      key_id text NOT NULL,
      sealed bytea NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`
  // Where a re-seal under a new master key has got to, so an interrupted run goes on from there.
  yield* sql`
    CREATE TABLE reseal_progress (
      id smallint PRIMARY KEY CHECK (id = 1),
      key_id text NOT NULL,
      after_column text CHECK (after_column IN ('master_key_check.sealed', 'apps.secret_sealed', 'apps.webhook_key_sealed', 'wallet_keys.sealed_key')),
      after_row bigint,
      resealed bigint NOT NULL,
      current bigint NOT NULL,
      changed bigint NOT NULL,
      unreadable bigint NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((after_column IS NULL) = (after_row IS NULL))
    )`
})
