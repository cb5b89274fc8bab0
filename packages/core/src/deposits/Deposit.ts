import type { ConfirmationRule } from "../settings/ConfirmationRule.js"
import type { TenantId, WalletId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"

export type DepositStatus = "confirmed" | "reverted"

export type DepositId = string & { readonly DepositId: unique symbol }
export type EventId = string & { readonly EventId: unique symbol }

/** One USDT Transfer log to a tenant wallet, in its current revision. */
export interface Deposit {
  readonly id: DepositId
  readonly eventId: EventId
  readonly tenantId: TenantId
  readonly network: Network
  readonly status: DepositStatus
  readonly walletId: WalletId
  /** Snapshot taken when the log was first stored. */
  readonly customId: string
  readonly address: string
  readonly source: string
  readonly contract: string
  readonly amount: bigint
  readonly txid: string
  readonly logIndex: number
  readonly blockNumber: bigint
  readonly blockHash: string | null
  readonly blockTime: Date
  /** When the platform first confirmed and stored it. */
  readonly createdAt: Date
  readonly revision: number
  readonly confirmationType: ConfirmationRule
  /** Null when confirmed by solidification. */
  readonly confirmations: number | null
}
