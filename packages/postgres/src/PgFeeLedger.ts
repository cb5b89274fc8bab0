import { SqlClient } from "@effect/sql"
import { Fees, type Kernel, type Sweeps, type Tenants } from "@collector/core"
import { Effect, Layer } from "effect"

interface EntryRow {
  readonly task_id: string
  readonly tenant_id: string
  readonly network: Kernel.Network
  readonly wallet_id: string
  readonly txid: string
  readonly block_number: string
  readonly block_time: Date
  readonly energy_own: string
  readonly energy_delegated: string
  readonly energy_rented: string
  readonly energy_burned: string
  readonly network_energy_fee: string
  readonly network_bandwidth_fee: string
  readonly provider_energy_cost: string
  readonly provider_activation_cost: string
  readonly lending_fee: string
  readonly energy_price: string
  readonly burn_equivalent: string
  readonly saving: string
  readonly booked_at: Date
}

type TotalsRow = Omit<EntryRow, "task_id" | "tenant_id" | "network" | "wallet_id" | "txid" | "block_number" | "block_time" | "energy_price" | "booked_at"> & {
  readonly entries: string
}

/** The amounts, summed or not: int8 and numeric as text, never JS numbers. */
const amounts = ["energy_own", "energy_delegated", "energy_rented", "energy_burned", "network_energy_fee", "network_bandwidth_fee",
  "provider_energy_cost", "provider_activation_cost", "lending_fee", "burn_equivalent", "saving"] as const

const columns = `task_id::text AS task_id, tenant_id::text AS tenant_id, network, wallet_id::text AS wallet_id, txid,
  block_number::text AS block_number, block_time, ${amounts.map((a) => `${a}::text AS ${a}`).join(", ")},
  energy_price::text AS energy_price, booked_at`

const sums = `count(*)::text AS entries, ${amounts.map((a) => `coalesce(sum(${a}), 0)::text AS ${a}`).join(", ")}`

const toEntry = (row: EntryRow): Fees.FeeEntry => ({
  taskId: row.task_id as Sweeps.SweepTaskId,
  tenantId: row.tenant_id as Kernel.TenantId,
  network: row.network,
  walletId: row.wallet_id as Kernel.WalletId,
  txid: row.txid,
  blockNumber: BigInt(row.block_number),
  blockTime: row.block_time,
  energy: { own: BigInt(row.energy_own), delegated: BigInt(row.energy_delegated), rented: BigInt(row.energy_rented), burned: BigInt(row.energy_burned) },
  networkEnergyFee: BigInt(row.network_energy_fee),
  networkBandwidthFee: BigInt(row.network_bandwidth_fee),
  providerEnergyCost: BigInt(row.provider_energy_cost),
  providerActivationCost: BigInt(row.provider_activation_cost),
  lendingFee: BigInt(row.lending_fee),
  energyPrice: BigInt(row.energy_price),
  burnEquivalent: BigInt(row.burn_equivalent),
  saving: BigInt(row.saving),
  bookedAt: row.booked_at
})

const toTotals = (row: TotalsRow): Fees.FeeTotals => ({
  entries: Number(row.entries),
  energy: { own: BigInt(row.energy_own), delegated: BigInt(row.energy_delegated), rented: BigInt(row.energy_rented), burned: BigInt(row.energy_burned) },
  networkEnergyFee: BigInt(row.network_energy_fee),
  networkBandwidthFee: BigInt(row.network_bandwidth_fee),
  providerEnergyCost: BigInt(row.provider_energy_cost),
  providerActivationCost: BigInt(row.provider_activation_cost),
  lendingFee: BigInt(row.lending_fee),
  burnEquivalent: BigInt(row.burn_equivalent),
  saving: BigInt(row.saving)
})

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const cols = sql.unsafe(columns)
  const sumCols = sql.unsafe(sums)

  const inTimes = (period: Fees.FeePeriod) =>
    sql`block_time >= ${period.since} AND (${period.until ?? null}::timestamptz IS NULL OR block_time < ${period.until ?? null}::timestamptz)`
  const inPeriod = (scope: Tenants.TenantScope, period: Fees.FeePeriod) => sql`tenant_id = ${scope.tenantId}::bigint AND network = ${scope.network} AND ${inTimes(period)}`

  return Fees.FeeLedger.of({
    // ON CONFLICT DO NOTHING: of two passes booking one task, the first entry stays.
    record: (e) =>
      sql<{ task_id: string }>`
        INSERT INTO fee_ledger (task_id, tenant_id, network, wallet_id, txid, block_number, block_time, energy_own, energy_delegated,
          energy_rented, energy_burned, network_energy_fee, network_bandwidth_fee, provider_energy_cost, provider_activation_cost,
          lending_fee, energy_price, burn_equivalent, saving, booked_at)
        VALUES (${e.taskId}::bigint, ${e.tenantId}::bigint, ${e.network}, ${e.walletId}::bigint, ${e.txid}, ${e.blockNumber.toString()}::bigint,
          ${e.blockTime}, ${e.energy.own.toString()}::numeric, ${e.energy.delegated.toString()}::numeric, ${e.energy.rented.toString()}::numeric,
          ${e.energy.burned.toString()}::numeric, ${e.networkEnergyFee.toString()}::numeric, ${e.networkBandwidthFee.toString()}::numeric,
          ${e.providerEnergyCost.toString()}::numeric, ${e.providerActivationCost.toString()}::numeric, ${e.lendingFee.toString()}::numeric,
          ${e.energyPrice.toString()}::numeric,
          ${e.burnEquivalent.toString()}::numeric, ${e.saving.toString()}::numeric, ${e.bookedAt})
        ON CONFLICT (task_id) DO NOTHING
        RETURNING task_id::text AS task_id`.pipe(Effect.orDie, Effect.map((rows) => rows.length === 1)),
    unbooked: (network, limit, after) =>
      sql<{ id: string; tenant_id: string; network: Kernel.Network }>`
        SELECT t.id::text AS id, t.tenant_id::text AS tenant_id, t.network FROM sweep_tasks t
        WHERE t.network = ${network} AND t.status IN ('succeeded', 'failed') AND t.actual_bandwidth_fee IS NOT NULL AND t.txid <> ''
          AND (${after ?? null}::bigint IS NULL OR t.id > ${after ?? null}::bigint)
          AND NOT EXISTS (SELECT 1 FROM fee_ledger f WHERE f.task_id = t.id)
        ORDER BY t.id LIMIT ${limit}`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.map((r) => ({ tenantId: r.tenant_id as Kernel.TenantId, network: r.network, taskId: r.id as Sweeps.SweepTaskId })))
      ),
    totals: (scope, period) => sql<TotalsRow>`SELECT ${sumCols} FROM fee_ledger WHERE ${inPeriod(scope, period)}`.pipe(Effect.orDie, Effect.map(([row]) => toTotals(row!))),
    // On the network's index by block time (migration 0028): the operator's day is one range scan.
    networkTotals: (network, period) =>
      sql<TotalsRow>`SELECT ${sumCols} FROM fee_ledger WHERE network = ${network} AND ${inTimes(period)}`.pipe(
        Effect.orDie,
        Effect.map(([row]) => toTotals(row!))
      ),
    list: (scope, period, limit) =>
      sql<EntryRow>`SELECT ${cols} FROM fee_ledger f WHERE ${inPeriod(scope, period)} ORDER BY f.block_time DESC, f.task_id DESC LIMIT ${limit}`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.map(toEntry))
      )
  })
})

export const layer = Layer.effect(Fees.FeeLedger, make)
