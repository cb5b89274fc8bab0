import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The ledger of energy lent from the operator's own stake, one row per sweep task: the primary
 * key is what makes a task delegated at most once. No foreign key to sweep_tasks: a delegation
 * must outlive the pruning of its task until its stake is back. The partial index serves the
 * reclaim loop, which reads only what is still lent.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE energy_delegations (
      task_id bigint PRIMARY KEY,
      network text NOT NULL CHECK (network IN ('main', 'nile')),
      owner_address text NOT NULL,
      receiver_address text NOT NULL CHECK (receiver_address <> owner_address),
      energy numeric(78, 0) NOT NULL CHECK (energy > 0),
      balance numeric(78, 0) NOT NULL CHECK (balance >= 1000000 AND balance % 1000000 = 0),
      state text NOT NULL CHECK (state IN ('planned', 'broadcast', 'confirmed', 'reclaim_broadcast', 'reclaimed')),
      delegate_txid text NOT NULL CHECK (delegate_txid ~ '^[0-9a-f]{64}$'),
      delegate_expiration timestamptz NOT NULL,
      reclaim_txid text CHECK (reclaim_txid ~ '^[0-9a-f]{64}$'),
      reclaim_expiration timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CONSTRAINT energy_delegations_reclaim_whole CHECK ((reclaim_txid IS NULL) = (reclaim_expiration IS NULL)),
      CONSTRAINT energy_delegations_reclaim_recorded CHECK (state <> 'reclaim_broadcast' OR reclaim_txid IS NOT NULL)
    )`
  yield* sql`CREATE INDEX energy_delegations_open ON energy_delegations (network, created_at, task_id) WHERE state <> 'reclaimed'`
})
