import type { Deposits, Kernel, Scanning, Settings } from "@collector/core"

/** A deposit row read with `depositColumns` (table alias `d`). */
// int8 and numeric come back as text: IDs and money never pass through a JS number.
export const depositColumns = `d.id::text AS id, d.event_id::text AS event_id, d.tenant_id::text AS tenant_id, d.network, d.status,
  d.wallet_id::text AS wallet_id, d.custom_id, d.address, d.source, d.contract, d.amount::text AS amount, d.txid, d.log_index,
  d.block_number::text AS block_number, d.block_hash, d.block_time, d.created_at, d.revision, d.confirmation_type, d.confirmations`

export interface DepositRow {
  readonly id: string
  readonly event_id: string
  readonly tenant_id: string
  readonly network: Kernel.Network
  readonly status: Deposits.DepositStatus
  readonly wallet_id: string
  readonly custom_id: string
  readonly address: string
  readonly source: string
  readonly contract: string
  readonly amount: string
  readonly txid: string
  readonly log_index: number
  readonly block_number: string
  readonly block_hash: string | null
  readonly block_time: Date
  readonly created_at: Date
  readonly revision: number
  readonly confirmation_type: Settings.ConfirmationRule
  readonly confirmations: number | null
}

export const toDeposit = (row: DepositRow): Deposits.Deposit => ({
  id: row.id as Deposits.DepositId,
  eventId: row.event_id as Deposits.EventId,
  tenantId: row.tenant_id as Kernel.TenantId,
  network: row.network,
  status: row.status,
  walletId: row.wallet_id as Kernel.WalletId,
  customId: row.custom_id,
  address: row.address,
  source: row.source,
  contract: row.contract,
  amount: BigInt(row.amount),
  txid: row.txid,
  logIndex: row.log_index,
  blockNumber: BigInt(row.block_number),
  blockHash: row.block_hash,
  blockTime: row.block_time,
  createdAt: row.created_at,
  revision: row.revision,
  confirmationType: row.confirmation_type,
  confirmations: row.confirmations
})

/** An observed Transfer log row read with `observedLogColumns` (table alias `o`). */
export const observedLogColumns = `o.network, o.txid, o.log_index, o.block_number::text AS block_number, o.block_hash, o.block_time,
  o.tenant_id::text AS tenant_id, o.wallet_id::text AS wallet_id, o.custom_id, o.address, o.source, o.contract, o.amount::text AS amount`

export interface ObservedLogRow {
  readonly network: Kernel.Network
  readonly txid: string
  readonly log_index: number
  readonly block_number: string
  readonly block_hash: string
  readonly block_time: Date
  readonly tenant_id: string
  readonly wallet_id: string
  readonly custom_id: string
  readonly address: string
  readonly source: string
  readonly contract: string
  readonly amount: string
}

/** The transfer a log row records: what a pending transfer is before its tenant's rule is joined. */
export const toObservedTransfer = (row: ObservedLogRow): Omit<Scanning.PendingTransfer, "rule"> => ({
  network: row.network,
  txid: row.txid,
  logIndex: row.log_index,
  blockNumber: BigInt(row.block_number),
  blockHash: row.block_hash,
  blockTime: row.block_time,
  tenantId: row.tenant_id as Kernel.TenantId,
  walletId: row.wallet_id as Kernel.WalletId,
  customId: row.custom_id,
  address: row.address,
  source: row.source,
  contract: row.contract,
  amount: BigInt(row.amount)
})
