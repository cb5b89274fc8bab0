import type { ConfirmationRule } from "../settings/ConfirmationRule.js"
import type { TenantId, WalletId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"

/** A stored transfer not yet booked as a confirmed deposit, with its tenant's rule. */
export interface PendingTransfer {
  readonly network: Network
  readonly txid: string
  readonly logIndex: number
  readonly blockNumber: bigint
  readonly blockHash: string
  readonly blockTime: Date
  readonly tenantId: TenantId
  readonly walletId: WalletId
  readonly customId: string
  readonly address: string
  readonly source: string
  readonly contract: string
  readonly amount: bigint
  readonly rule: ConfirmationRule
}
