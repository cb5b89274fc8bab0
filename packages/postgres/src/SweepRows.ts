import type { Energy, Kernel, Sweeps } from "@collector/core"

/** The terminal statuses as SQL, exactly as the partial indexes on `sweep_tasks` say them. */
export const terminalSql = `('succeeded', 'failed', 'cancelled')`

/** A task row read with `sweepColumns` (table alias `t`); int8 and numeric as text, never JS numbers. */
export const sweepColumns = `t.id::text AS id, t.tenant_id::text AS tenant_id, t.network, t.wallet_id::text AS wallet_id, t.address,
  t.mode, t.requested_amount::text AS requested_amount, t.minimum_amount::text AS minimum_amount, t.amount::text AS amount, t.destination, t.origin, t.status, t.stage, t.reason,
  t.txid, t.raw_data_hex, t.signature, t.tx_expiration, t.fee_limit::text AS fee_limit, t.actual_fee::text AS actual_fee,
  t.actual_bandwidth_fee::text AS actual_bandwidth_fee, t.fee_warning, t.fee_source, t.energy_path, t.fee_reason, t.prepared_energy::text AS prepared_energy,
  t.estimated_wallet_trx_fee::text AS estimated_wallet_trx_fee, t.max_wallet_trx_fee::text AS max_wallet_trx_fee,
  t.rental_order_id, t.rental_provider, t.rental_provider_order_id, t.rental_quantity::text AS rental_quantity,
  t.rental_estimated_cost::text AS rental_estimated_cost, t.rental_paid_cost::text AS rental_paid_cost,
  t.rental_activation_cost::text AS rental_activation_cost, t.rental_state, t.rental_expires_at,
  t.created_at, t.updated_at, t.next_step_at, t.prepare_by, t.version`

export interface SweepRow {
  readonly id: string
  readonly tenant_id: string
  readonly network: Kernel.Network
  readonly wallet_id: string
  readonly address: string
  readonly mode: Sweeps.SweepMode
  readonly requested_amount: string | null
  readonly minimum_amount: string | null
  readonly amount: string
  readonly destination: string
  readonly origin: Sweeps.SweepOrigin
  readonly status: Sweeps.SweepStatus
  readonly stage: Sweeps.PreparationStage
  readonly reason: string
  readonly txid: string
  readonly raw_data_hex: string | null
  readonly signature: string | null
  readonly tx_expiration: Date | null
  readonly fee_limit: string | null
  readonly actual_fee: string
  readonly actual_bandwidth_fee: string | null
  readonly fee_warning: string | null
  readonly fee_source: Sweeps.FeeSource | null
  readonly energy_path: Sweeps.EnergyPath | null
  readonly fee_reason: string | null
  readonly prepared_energy: string | null
  readonly estimated_wallet_trx_fee: string | null
  readonly max_wallet_trx_fee: string | null
  readonly rental_order_id: string | null
  readonly rental_provider: string | null
  readonly rental_provider_order_id: string | null
  readonly rental_quantity: string | null
  readonly rental_estimated_cost: string | null
  readonly rental_paid_cost: string | null
  readonly rental_activation_cost: string | null
  readonly rental_state: Energy.RentalState | null
  readonly rental_expires_at: Date | null
  readonly created_at: Date
  readonly updated_at: Date
  readonly next_step_at: Date
  readonly prepare_by: Date
  readonly version: number
}

const bigintOrNull = (text: string | null): bigint | null => text === null ? null : BigInt(text)

export const toSweepTask = (row: SweepRow): Sweeps.SweepTask => ({
  id: row.id as Sweeps.SweepTaskId,
  tenantId: row.tenant_id as Kernel.TenantId,
  network: row.network,
  walletId: row.wallet_id as Kernel.WalletId,
  address: row.address,
  mode: row.mode,
  requestedAmount: bigintOrNull(row.requested_amount),
  minimumAmount: bigintOrNull(row.minimum_amount),
  amount: BigInt(row.amount),
  destination: row.destination,
  origin: row.origin,
  status: row.status,
  stage: row.stage,
  reason: row.reason,
  // The table's checks keep the transaction whole: a txid always comes with its stored bytes.
  transaction: row.txid === ""
    ? null
    : {
      txid: row.txid,
      rawDataHex: row.raw_data_hex!,
      signature: row.signature!,
      expiration: row.tx_expiration!,
      feeLimit: BigInt(row.fee_limit!)
    },
  actualFee: BigInt(row.actual_fee),
  actualBandwidthFee: bigintOrNull(row.actual_bandwidth_fee),
  feeWarning: row.fee_warning,
  feeSource: row.fee_source,
  energyPath: row.energy_path,
  feeReason: row.fee_reason,
  preparedEnergy: bigintOrNull(row.prepared_energy),
  estimatedWalletTrxFee: bigintOrNull(row.estimated_wallet_trx_fee),
  maxWalletTrxFee: bigintOrNull(row.max_wallet_trx_fee),
  rental: row.rental_order_id === null
    ? null
    : {
      orderId: row.rental_order_id,
      provider: row.rental_provider!,
      providerOrderId: row.rental_provider_order_id,
      quantity: BigInt(row.rental_quantity!),
      estimatedCost: BigInt(row.rental_estimated_cost!),
      paidCost: BigInt(row.rental_paid_cost!),
      activationCost: BigInt(row.rental_activation_cost!),
      state: row.rental_state!,
      expiresAt: row.rental_expires_at
    },
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  nextStepAt: row.next_step_at,
  prepareBy: row.prepare_by,
  version: row.version
})

const textOrNull = (value: bigint | null): string | null => value === null ? null : value.toString()

/**
 * Every column a step may change, as `sql.update` takes them: money as text. What the task was
 * created for (scope, wallet, address, mode, requested amount, destination, origin, creation
 * time) is never written after the insert; the claim and the version belong to the statements.
 */
export const mutableColumns = (task: Sweeps.SweepTask) => ({
  amount: task.amount.toString(),
  status: task.status,
  stage: task.stage,
  reason: task.reason,
  txid: task.transaction?.txid ?? "",
  raw_data_hex: task.transaction?.rawDataHex ?? null,
  signature: task.transaction?.signature ?? null,
  tx_expiration: task.transaction?.expiration ?? null,
  fee_limit: task.transaction === null ? null : task.transaction.feeLimit.toString(),
  actual_fee: task.actualFee.toString(),
  actual_bandwidth_fee: textOrNull(task.actualBandwidthFee),
  fee_warning: task.feeWarning,
  fee_source: task.feeSource,
  energy_path: task.energyPath,
  fee_reason: task.feeReason,
  prepared_energy: textOrNull(task.preparedEnergy),
  estimated_wallet_trx_fee: textOrNull(task.estimatedWalletTrxFee),
  max_wallet_trx_fee: textOrNull(task.maxWalletTrxFee),
  rental_order_id: task.rental?.orderId ?? null,
  rental_provider: task.rental?.provider ?? null,
  rental_provider_order_id: task.rental?.providerOrderId ?? null,
  rental_quantity: task.rental === null ? null : task.rental.quantity.toString(),
  rental_estimated_cost: task.rental === null ? null : task.rental.estimatedCost.toString(),
  rental_paid_cost: task.rental === null ? null : task.rental.paidCost.toString(),
  rental_activation_cost: task.rental === null ? null : task.rental.activationCost.toString(),
  rental_state: task.rental?.state ?? null,
  rental_expires_at: task.rental?.expiresAt ?? null,
  updated_at: task.updatedAt,
  next_step_at: task.nextStepAt,
  prepare_by: task.prepareBy
})
