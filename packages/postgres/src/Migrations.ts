import { Migrator, SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import tenancy from "./migrations/0001_tenancy.js"
import wallets from "./migrations/0002_wallets.js"
import settingsAndWalletIndexes from "./migrations/0003_settings_and_wallet_indexes.js"
import walletCounts from "./migrations/0004_wallet_counts.js"
import balanceSyncInvariant from "./migrations/0005_balance_sync_invariant.js"
import deposits from "./migrations/0006_deposits.js"
import deliveries from "./migrations/0007_deliveries.js"
import sweeps from "./migrations/0008_sweeps.js"
import deliveryBatching from "./migrations/0009_delivery_batching.js"
import sweepMinimum from "./migrations/0010_sweep_minimum.js"
import deliveryChurn from "./migrations/0011_delivery_churn.js"
import automationRoundLease from "./migrations/0012_automation_round_lease.js"
import deliveryAttemptSent from "./migrations/0013_delivery_attempt_sent.js"
import defaultRentalCap from "./migrations/0014_default_rental_cap.js"
import depositIdsDrawnFirst from "./migrations/0015_deposit_ids_drawn_first.js"
import depositMinimum from "./migrations/0016_deposit_minimum.js"
import sealedValues from "./migrations/0017_sealed_values.js"
import recordPruning from "./migrations/0018_record_pruning.js"
import walletKeyStore from "./migrations/0021_wallet_key_store.js"
import walletIdsDrawnFirst from "./migrations/0022_wallet_ids_drawn_first.js"
import operatorConsole from "./migrations/0023_operator_console.js"
import energyDelegations from "./migrations/0024_energy_delegations.js"
import resourceAccounts from "./migrations/0025_resource_accounts.js"
import sweepEnergyPath from "./migrations/0026_sweep_energy_path.js"
import feeLedger from "./migrations/0027_fee_ledger.js"
import feeLedgerNetwork from "./migrations/0028_fee_ledger_network.js"
import resourceAccountIds from "./migrations/0029_resource_account_ids.js"
import walletBalanceTotals from "./migrations/0030_wallet_balance_totals.js"
import depositTallyIndex from "./migrations/0031_deposit_tally_index.js"
import feeLedgerLendingFee from "./migrations/0033_fee_ledger_lending_fee.js"
import unaccountedOutflows from "./migrations/0034_unaccounted_outflows.js"

const loader = Migrator.fromRecord({
  "0001_tenancy": tenancy,
  "0002_wallets": wallets,
  "0003_settings_and_wallet_indexes": settingsAndWalletIndexes,
  "0004_wallet_counts": walletCounts,
  "0005_balance_sync_invariant": balanceSyncInvariant,
  "0006_deposits": deposits,
  "0007_deliveries": deliveries,
  "0008_sweeps": sweeps,
  "0009_delivery_batching": deliveryBatching,
  "0010_sweep_minimum": sweepMinimum,
  "0011_delivery_churn": deliveryChurn,
  "0012_automation_round_lease": automationRoundLease,
  "0013_delivery_attempt_sent": deliveryAttemptSent,
  "0014_default_rental_cap": defaultRentalCap,
  "0015_deposit_ids_drawn_first": depositIdsDrawnFirst,
  "0016_deposit_minimum": depositMinimum,
  "0017_sealed_values": sealedValues,
  "0018_record_pruning": recordPruning,
  "0021_wallet_key_store": walletKeyStore,
  "0022_wallet_ids_drawn_first": walletIdsDrawnFirst,
  "0023_operator_console": operatorConsole,
  "0024_energy_delegations": energyDelegations,
  "0025_resource_accounts": resourceAccounts,
  "0026_sweep_energy_path": sweepEnergyPath,
  "0027_fee_ledger": feeLedger,
  "0028_fee_ledger_network": feeLedgerNetwork,
  "0029_resource_account_ids": resourceAccountIds,
  "0030_wallet_balance_totals": walletBalanceTotals,
  "0031_deposit_tally_index": depositTallyIndex,
  "0033_fee_ledger_lending_fee": feeLedgerLendingFee,
  "0034_unaccounted_outflows": unaccountedOutflows
})

const runMigrator = Migrator.make({})({ loader })

/**
 * Runs the ordered migrations. The Migrator serialises runs with a table lock, but creates its
 * bookkeeping table unguarded; creating it first under an advisory lock lets a service and an
 * operator CLI start together against a fresh database.
 */
export const migrate = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.withTransaction(
    sql`SELECT pg_advisory_xact_lock(7318001)`.pipe(
      Effect.zipRight(sql`
        CREATE TABLE IF NOT EXISTS effect_sql_migrations (
          migration_id integer PRIMARY KEY,
          created_at timestamp with time zone NOT NULL DEFAULT now(),
          name text NOT NULL
        )`)
    )
  )
  return yield* runMigrator
})

export const MigrationsLive = Layer.effectDiscard(Effect.orDie(migrate))
