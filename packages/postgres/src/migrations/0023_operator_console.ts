import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The console's operators: their tokens and browser sessions (only a SHA-256 of each secret is
 * kept; a session names the token it was opened with, so revoking the token ends it), and the
 * audit trail of what they did through the console. The indexes keep the console's pages on
 * bounded reads at a million wallets: the last day's deposits and events, the deliveries in
 * trouble and the sweeps that have not succeeded.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE operator_credentials (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('token', 'session')),
      token_id bigint REFERENCES operator_credentials (id),
      secret_hash bytea NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz,
      CHECK ((kind = 'token') = (token_id IS NULL))
    )`
  yield* sql`CREATE INDEX operator_credentials_tokens ON operator_credentials (id DESC) WHERE kind = 'token'`
  yield* sql`
    CREATE TABLE operator_audit (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      token_id bigint NOT NULL REFERENCES operator_credentials (id),
      action text NOT NULL,
      target text NOT NULL,
      outcome text NOT NULL,
      at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX deposits_network_created ON deposits (network, created_at) WHERE status = 'confirmed'`
  yield* sql`CREATE INDEX events_scope_created ON events (tenant_id, network, created_at)`
  yield* sql`CREATE INDEX events_troubled ON events (id DESC) WHERE status = 'failed' OR (status IN ('pending', 'delivering') AND attempts > 0)`
  yield* sql`CREATE INDEX sweep_tasks_not_succeeded ON sweep_tasks (id DESC) WHERE status <> 'succeeded'`
})
