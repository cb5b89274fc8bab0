import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Sweep tasks draw their IDs from the events' sequence: a task's terminal event takes the
  // task's own ID, and no deposit event can ever have it.
  yield* sql`
    CREATE TABLE sweep_tasks (
      id bigint PRIMARY KEY DEFAULT nextval('task_event_id_seq'),
      tenant_id bigint NOT NULL REFERENCES tenants (id),
      network text NOT NULL CHECK (network IN ('main', 'nile')),
      wallet_id bigint NOT NULL REFERENCES wallets (id),
      address text NOT NULL,
      mode text NOT NULL CHECK (mode IN ('all', 'fixed')),
      requested_amount numeric(78, 0),
      amount numeric(78, 0) NOT NULL DEFAULT 0 CHECK (amount >= 0),
      destination text NOT NULL,
      origin text NOT NULL CHECK (origin IN ('manual', 'automation')),
      status text NOT NULL DEFAULT 'pending' CHECK (status IN
        ('pending', 'ready', 'signed', 'broadcast', 'unknown', 'succeeded', 'failed', 'cancelled')),
      stage text NOT NULL DEFAULT 'queued' CHECK (stage IN ('queued', 'waiting_bandwidth', 'renting', 'waiting_energy', 'ready')),
      reason text NOT NULL DEFAULT '',
      txid text NOT NULL DEFAULT '',
      raw_data_hex text,
      signature text,
      tx_expiration timestamptz,
      fee_limit numeric(78, 0),
      actual_fee numeric(78, 0) NOT NULL DEFAULT 0 CHECK (actual_fee >= 0),
      actual_bandwidth_fee numeric(78, 0) CHECK (actual_bandwidth_fee >= 0),
      fee_warning text,
      fee_source text CHECK (fee_source IN ('resources', 'wallet_trx', 'rental')),
      prepared_energy numeric(78, 0) CHECK (prepared_energy >= 0),
      estimated_wallet_trx_fee numeric(78, 0) CHECK (estimated_wallet_trx_fee >= 0),
      max_wallet_trx_fee numeric(78, 0) CHECK (max_wallet_trx_fee >= 0),
      rental_order_id text UNIQUE,
      rental_provider text,
      rental_provider_order_id text,
      rental_quantity numeric(78, 0) CHECK (rental_quantity >= 0),
      rental_estimated_cost numeric(78, 0) CHECK (rental_estimated_cost >= 0),
      rental_paid_cost numeric(78, 0) CHECK (rental_paid_cost >= 0),
      rental_activation_cost numeric(78, 0) CHECK (rental_activation_cost >= 0),
      rental_state text CHECK (rental_state IN ('ordering', 'unknown', 'pending', 'delivered', 'under_delivered', 'expired', 'failed')),
      rental_expires_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      next_step_at timestamptz NOT NULL,
      prepare_by timestamptz NOT NULL,
      version integer NOT NULL DEFAULT 0 CHECK (version >= 0),
      claimed_by text,
      claimed_until timestamptz,
      CONSTRAINT sweep_tasks_requested_amount CHECK
        (CASE mode WHEN 'all' THEN requested_amount IS NULL ELSE requested_amount > 0 END),
      -- The stored transaction is whole or absent: a txid always comes with the bytes that were signed.
      CONSTRAINT sweep_tasks_transaction_whole CHECK (
        (txid = '') = (raw_data_hex IS NULL) AND (txid = '') = (signature IS NULL)
        AND (txid = '') = (tx_expiration IS NULL) AND (txid = '') = (fee_limit IS NULL)),
      -- From signed on the transaction is what the task is about: it must be stored.
      CONSTRAINT sweep_tasks_signed_has_transaction CHECK (
        status NOT IN ('signed', 'broadcast', 'unknown') OR (txid <> '' AND raw_data_hex IS NOT NULL AND signature IS NOT NULL)),
      CONSTRAINT sweep_tasks_rental_whole CHECK (
        (rental_order_id IS NULL) = (rental_provider IS NULL) AND (rental_order_id IS NULL) = (rental_quantity IS NULL)
        AND (rental_order_id IS NULL) = (rental_estimated_cost IS NULL) AND (rental_order_id IS NULL) = (rental_paid_cost IS NULL)
        AND (rental_order_id IS NULL) = (rental_activation_cost IS NULL) AND (rental_order_id IS NULL) = (rental_state IS NULL)),
      CONSTRAINT sweep_tasks_claim_whole CHECK ((claimed_by IS NULL) = (claimed_until IS NULL))
    )`
  // One unfinished task per wallet. The same index answers "is this wallet collecting" for
  // every wallet read, and is the arbiter of the create batch's ON CONFLICT DO NOTHING.
  yield* sql`
    CREATE UNIQUE INDEX sweep_tasks_wallet_unfinished ON sweep_tasks (wallet_id)
    WHERE status NOT IN ('succeeded', 'failed', 'cancelled')`
  yield* sql`CREATE INDEX sweep_tasks_scope ON sweep_tasks (tenant_id, network, id DESC)`
  // The list's wallet filter (and the foreign key's lookups from wallets).
  yield* sql`CREATE INDEX sweep_tasks_wallet ON sweep_tasks (wallet_id, id DESC)`
  yield* sql`CREATE INDEX sweep_tasks_txid ON sweep_tasks (network, txid) WHERE txid <> ''`
  // The dashboard's pending count, without reading the scope's finished history.
  yield* sql`
    CREATE INDEX sweep_tasks_scope_unfinished ON sweep_tasks (tenant_id, network)
    WHERE status NOT IN ('succeeded', 'failed', 'cancelled')`
  // The sweeper's claim: due unfinished tasks of a network, oldest step first.
  yield* sql`
    CREATE INDEX sweep_tasks_due ON sweep_tasks (network, next_step_at, id)
    WHERE status NOT IN ('succeeded', 'failed', 'cancelled')`
  // What the statements promise, kept by the database for any writer: a terminal task never
  // changes again, a stored transaction is never replaced or removed (nothing is re-signed),
  // a rental order keeps its number, and what the task was created for stays as it was.
  yield* sql`
    CREATE FUNCTION sweep_tasks_guard() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF OLD.status IN ('succeeded', 'failed', 'cancelled') THEN
        RAISE EXCEPTION 'sweep task %: % is terminal and never changes', OLD.id, OLD.status
          USING ERRCODE = 'check_violation', CONSTRAINT = 'sweep_tasks_terminal_final';
      END IF;
      IF OLD.txid <> '' AND (NEW.txid, NEW.raw_data_hex, NEW.signature, NEW.tx_expiration, NEW.fee_limit)
          IS DISTINCT FROM (OLD.txid, OLD.raw_data_hex, OLD.signature, OLD.tx_expiration, OLD.fee_limit) THEN
        RAISE EXCEPTION 'sweep task %: the stored transaction % is never replaced', OLD.id, OLD.txid
          USING ERRCODE = 'check_violation', CONSTRAINT = 'sweep_tasks_transaction_kept';
      END IF;
      IF OLD.rental_order_id IS NOT NULL AND NEW.rental_order_id IS DISTINCT FROM OLD.rental_order_id THEN
        RAISE EXCEPTION 'sweep task %: rental order % keeps its number', OLD.id, OLD.rental_order_id
          USING ERRCODE = 'check_violation', CONSTRAINT = 'sweep_tasks_rental_kept';
      END IF;
      IF (NEW.tenant_id, NEW.network, NEW.wallet_id, NEW.address, NEW.mode, NEW.requested_amount, NEW.destination, NEW.origin,
          NEW.created_at)
          IS DISTINCT FROM (OLD.tenant_id, OLD.network, OLD.wallet_id, OLD.address, OLD.mode, OLD.requested_amount,
          OLD.destination, OLD.origin, OLD.created_at) THEN
        RAISE EXCEPTION 'sweep task %: what the task was created for never changes', OLD.id
          USING ERRCODE = 'check_violation', CONSTRAINT = 'sweep_tasks_request_kept';
      END IF;
      RETURN NEW;
    END
    $$`
  yield* sql`
    CREATE TRIGGER sweep_tasks_guard BEFORE UPDATE ON sweep_tasks
    FOR EACH ROW EXECUTE FUNCTION sweep_tasks_guard()`
  // When the automation scheduler last ran for the scope (it picks scopes whose interval is up).
  yield* sql`ALTER TABLE tenant_settings ADD COLUMN automation_last_run_at timestamptz`
})
