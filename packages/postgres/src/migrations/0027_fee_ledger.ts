import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The fee ledger: one entry per finished sweep task whose transaction is on chain; the primary key
 * is what books a task once. No foreign key to sweep_tasks: an entry is the record of what was
 * paid and outlives the pruning of its task. The tenant's index serves the totals and lists over
 * a period of block times; the partial index on sweep_tasks serves the booking pass's look for
 * finished tasks not yet booked (a settled receipt leaves actual_bandwidth_fee set).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE fee_ledger (
      task_id bigint PRIMARY KEY,
      tenant_id bigint NOT NULL,
      network text NOT NULL CHECK (network IN ('main', 'nile')),
      wallet_id bigint NOT NULL,
      txid text NOT NULL CHECK (txid ~ '^[0-9a-f]{64}$'),
      block_number bigint NOT NULL CHECK (block_number >= 0),
      block_time timestamptz NOT NULL,
      energy_own numeric(78, 0) NOT NULL CHECK (energy_own >= 0),
      energy_delegated numeric(78, 0) NOT NULL CHECK (energy_delegated >= 0),
      energy_rented numeric(78, 0) NOT NULL CHECK (energy_rented >= 0),
      energy_burned numeric(78, 0) NOT NULL CHECK (energy_burned >= 0),
      network_energy_fee numeric(78, 0) NOT NULL CHECK (network_energy_fee >= 0),
      network_bandwidth_fee numeric(78, 0) NOT NULL CHECK (network_bandwidth_fee >= 0),
      provider_energy_cost numeric(78, 0) NOT NULL CHECK (provider_energy_cost >= 0),
      provider_activation_cost numeric(78, 0) NOT NULL CHECK (provider_activation_cost >= 0),
      energy_price numeric(78, 0) NOT NULL CHECK (energy_price >= 0),
      burn_equivalent numeric(78, 0) NOT NULL CHECK (burn_equivalent >= 0),
      saving numeric(78, 0) NOT NULL,
      booked_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX fee_ledger_scope_block_time ON fee_ledger (tenant_id, network, block_time)`
  yield* sql`
    CREATE INDEX sweep_tasks_fee_booking ON sweep_tasks (network, id)
    WHERE status IN ('succeeded', 'failed') AND actual_bandwidth_fee IS NOT NULL`
})
