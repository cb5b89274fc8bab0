/** Filters of the wallet list and selection; every bound is inclusive, absent means none. */
export interface WalletFilters {
  /** Case-insensitive contains match; `%` matches any run and `_` one character. */
  readonly address?: string
  readonly usdtMin?: bigint
  readonly usdtMax?: bigint
  readonly trxMin?: bigint
  readonly trxMax?: bigint
  readonly hideZero?: boolean
  readonly hideZeroTrx?: boolean
  /** UTC timestamp text at microsecond precision (the API rounds `from` up and `to` down). */
  readonly lastCollectedFrom?: string
  readonly lastCollectedTo?: string
}

/**
 * The most wallet IDs one selection returns: as many as one sweep or preview takes. A selection
 * matching more is refused, so its work stays bounded whatever the tenant holds.
 */
export const maxSelection = 1000

export type WalletSort = "created_at" | "balance_usdt" | "balance_trx" | "last_collected_at" | "collected_usdt"

export interface WalletQuery {
  readonly filters: WalletFilters
  readonly sort: WalletSort
  readonly order: "asc" | "desc"
  readonly page: number
  readonly pageSize: number
}

export interface WalletSummary {
  readonly walletCount: number
  readonly unsyncedWalletCount: number
  readonly balanceUsdt: bigint
  readonly balanceTrx: bigint
  readonly collectedUsdt: bigint
}

