import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE tenants (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled', 'deleted')),
      expires_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  // A deleted tenant frees its name; live tenants are told apart by name in the operator CLI.
  yield* sql`CREATE UNIQUE INDEX tenants_live_name ON tenants (name) WHERE status <> 'deleted'`
  // App IDs start above a million so they never look like small row counters.
  yield* sql`CREATE SEQUENCE app_id_seq START WITH 1000001`
  yield* sql`
    CREATE TABLE apps (
      app_id bigint PRIMARY KEY DEFAULT nextval('app_id_seq'),
      tenant_id bigint NOT NULL REFERENCES tenants (id),
      network text NOT NULL CHECK (network IN ('main', 'nile')),
      secret_key_id text NOT NULL,
      secret_sealed bytea NOT NULL,
      webhook_key_id text NOT NULL,
      webhook_key_sealed bytea NOT NULL,
      confirmation_rule text NOT NULL DEFAULT 'solidified'
        CHECK (confirmation_rule IN ('block_1', 'block_3', 'block_6', 'block_12', 'solidified')),
      created_at timestamptz NOT NULL DEFAULT now(),
      secret_rotated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (tenant_id, network)
    )`
  yield* sql`
    CREATE TABLE access_tokens (
      token_hash bytea PRIMARY KEY,
      app_id bigint NOT NULL REFERENCES apps (app_id),
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX access_tokens_app ON access_tokens (app_id)`
  yield* sql`CREATE INDEX access_tokens_expiry ON access_tokens (expires_at)`
  yield* sql`
    CREATE TABLE idempotency_records (
      tenant_id bigint NOT NULL REFERENCES tenants (id),
      network text NOT NULL,
      operation text NOT NULL,
      request_id text NOT NULL,
      params_digest text NOT NULL,
      outcome text NOT NULL CHECK (outcome IN ('running', 'Succeeded', 'Rejected')),
      response text,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, network, operation, request_id)
    )`
})
