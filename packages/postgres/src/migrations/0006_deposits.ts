import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Where each network's scanner stands. The advance of `block_number` is a compare-and-set on
  // the previous value, so two scanners can never both book the same block; the lease only
  // keeps a second worker from doing the same work for nothing.
  yield* sql`
    CREATE TABLE scan_cursors (
      network text PRIMARY KEY CHECK (network IN ('main', 'nile')),
      block_number bigint NOT NULL,
      block_hash text NOT NULL,
      head_number bigint NOT NULL,
      solidified_number bigint NOT NULL,
      lease_holder text NOT NULL DEFAULT '',
      lease_expires_at timestamptz NOT NULL DEFAULT '-infinity',
      updated_at timestamptz NOT NULL
    )`
  // Recent canonical blocks, for parent-hash checks below the head (pruned below solidified).
  yield* sql`
    CREATE TABLE scanned_blocks (
      network text NOT NULL,
      number bigint NOT NULL,
      hash text NOT NULL,
      parent_hash text NOT NULL,
      block_time timestamptz NOT NULL,
      PRIMARY KEY (network, number)
    )`
  // USDT Transfer logs to tenant wallets on the canonical chain as the scanner last saw it.
  // A log becomes a deposit once its tenant's confirmation rule is met (`booked`).
  yield* sql`
    CREATE TABLE observed_logs (
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
      source text NOT NULL,
      contract text NOT NULL,
      amount numeric(78, 0) NOT NULL CHECK (amount >= 0),
      booked boolean NOT NULL DEFAULT false,
      PRIMARY KEY (network, txid, log_index)
    )`
  yield* sql`CREATE INDEX observed_logs_unbooked ON observed_logs (network, block_number) WHERE NOT booked`
  yield* sql`CREATE INDEX observed_logs_block ON observed_logs (network, block_number)`
  // Sweep task IDs and notification event IDs share one sequence (a sweep event's ID is its task's).
  yield* sql`CREATE SEQUENCE task_event_id_seq`
  yield* sql`
    CREATE TABLE deposits (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      tenant_id bigint NOT NULL REFERENCES tenants (id),
      network text NOT NULL CHECK (network IN ('main', 'nile')),
      wallet_id bigint NOT NULL REFERENCES wallets (id),
      txid text NOT NULL,
      log_index integer NOT NULL,
      status text NOT NULL CHECK (status IN ('confirmed', 'reverted')),
      revision integer NOT NULL CHECK (revision >= 1),
      event_id bigint NOT NULL,
      custom_id text NOT NULL,
      address text NOT NULL,
      source text NOT NULL,
      contract text NOT NULL,
      amount numeric(78, 0) NOT NULL CHECK (amount >= 0),
      block_number bigint NOT NULL,
      block_hash text,
      block_time timestamptz NOT NULL,
      confirmation_type text NOT NULL
        CHECK (confirmation_type IN ('block_1', 'block_3', 'block_6', 'block_12', 'solidified')),
      confirmations integer CHECK ((confirmation_type = 'solidified') = (confirmations IS NULL)),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      UNIQUE (network, txid, log_index)
    )`
  yield* sql`CREATE INDEX deposits_scope ON deposits (tenant_id, network, id DESC)`
  yield* sql`CREATE INDEX deposits_address_trgm ON deposits USING gin (lower(address) gin_trgm_ops)`
  // Confirmed deposits above the solidified block can still be undone by a reorganisation.
  yield* sql`CREATE INDEX deposits_revertible ON deposits (network, block_number) WHERE status = 'confirmed'`
  // Cumulative confirmed USDT per scope, kept by the statements that confirm and revert.
  yield* sql`
    CREATE TABLE deposit_totals (
      tenant_id bigint NOT NULL REFERENCES tenants (id),
      network text NOT NULL,
      confirmed_usdt numeric(78, 0) NOT NULL CHECK (confirmed_usdt >= 0),
      PRIMARY KEY (tenant_id, network)
    )`
  // The notification outbox: written in the transaction of the state change it reports; the
  // payload is kept as the exact JSON text every delivery and the detail operation return.
  yield* sql`
    CREATE TABLE events (
      id bigint PRIMARY KEY DEFAULT nextval('task_event_id_seq'),
      tenant_id bigint NOT NULL REFERENCES tenants (id),
      network text NOT NULL CHECK (network IN ('main', 'nile')),
      event_type text NOT NULL CHECK (event_type IN
        ('deposit.confirmed', 'deposit.reverted', 'sweep.succeeded', 'sweep.failed', 'sweep.cancelled')),
      deposit_id bigint REFERENCES deposits (id),
      revision integer,
      payload text NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivering', 'delivered', 'failed')),
      attempts integer NOT NULL DEFAULT 0 CHECK (attempts BETWEEN 0 AND 20),
      current_round integer NOT NULL DEFAULT 1 CHECK (current_round >= 1),
      next_attempt timestamptz,
      deadline_at timestamptz NOT NULL,
      last_error text NOT NULL DEFAULT '',
      created_at timestamptz NOT NULL,
      delivered_at timestamptz,
      UNIQUE (deposit_id, revision)
    )`
  yield* sql`CREATE INDEX events_scope ON events (tenant_id, network, id DESC)`
  yield* sql`CREATE INDEX events_due ON events (next_attempt) WHERE status IN ('pending', 'delivering')`
  // Balance sync: a deposit marks its wallet stale from its block; a sync at a solidified block
  // at or above that clears the mark. Stale wallets go first, then never-synced, then the oldest.
  yield* sql`ALTER TABLE wallets ADD COLUMN balance_synced_at timestamptz, ADD COLUMN balance_stale_from bigint`
  yield* sql`CREATE INDEX wallets_sync_stale ON wallets (network, balance_stale_from, id) WHERE balance_stale_from IS NOT NULL`
  yield* sql`CREATE INDEX wallets_sync_rotation ON wallets (network, balance_synced_at NULLS FIRST, id)`
  // What each worker component last reported, for the dashboard's `engine`.
  yield* sql`
    CREATE TABLE worker_status (
      component text NOT NULL,
      network text NOT NULL,
      status text NOT NULL,
      detail text NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (component, network)
    )`
})
