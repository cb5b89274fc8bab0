import type { Deposit } from "./Deposit"

/**
 * The 24-field deposit object of the contract: the deposit detail, each list item, and the
 * plaintext of the deposit notifications are this one object, so one function builds it.
 */
export interface DepositRecord {
  readonly id: string
  readonly event_id: string
  readonly event_type: "deposit.confirmed" | "deposit.reverted"
  readonly status: "confirmed" | "reverted"
  readonly wallet_id: string
  readonly custom_id: string
  readonly chain: "TRON"
  readonly network: string
  readonly asset: "USDT"
  readonly token_standard: "TRC20"
  readonly decimals: 6
  readonly address: string
  readonly source: string
  readonly contract: string
  readonly amount: string
  readonly txid: string
  readonly log_index: number
  readonly block_number: string
  readonly block_time: string
  readonly created_at: string
  readonly revision: number
  readonly confirmation_type: string
  readonly confirmations: number | null
  readonly block_hash: string | null
}

/** UTC with exactly six fractional digits and `Z`, as the contract requires for deposit times. */
export const microsecondTime = (date: Date): string => date.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z")

export const depositRecord = (deposit: Deposit): DepositRecord => ({
  id: deposit.id,
  event_id: deposit.eventId,
  event_type: deposit.status === "confirmed" ? "deposit.confirmed" : "deposit.reverted",
  status: deposit.status,
  wallet_id: deposit.walletId,
  custom_id: deposit.customId,
  chain: "TRON",
  network: deposit.network,
  asset: "USDT",
  token_standard: "TRC20",
  decimals: 6,
  address: deposit.address,
  source: deposit.source,
  contract: deposit.contract,
  amount: deposit.amount.toString(),
  txid: deposit.txid,
  log_index: deposit.logIndex,
  block_number: deposit.blockNumber.toString(),
  block_time: microsecondTime(deposit.blockTime),
  created_at: microsecondTime(deposit.createdAt),
  revision: deposit.revision,
  confirmation_type: deposit.confirmationType,
  confirmations: deposit.confirmations,
  block_hash: deposit.blockHash
})
