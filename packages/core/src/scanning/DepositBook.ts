import { Context, type Effect } from "effect"
import type { ConfirmationRule } from "../ConfirmationRule"
import type { DepositId } from "../deposits/Deposit"
import type { TenantId, WalletId } from "../Ids"
import type { Network } from "../Network"

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

export interface Confirmation {
  readonly rule: ConfirmationRule
  readonly confirmations: number | null
}

/**
 * - `booked`: a new deposit (revision 1) or a reverted one confirmed again (revision + 1), with its event.
 * - `already`: the deposit is confirmed in this very block; nothing new to tell.
 * - `stale`: the transfer is gone or moved since it was read, or its old confirmation must be reverted first.
 */
export type BookingOutcome = "booked" | "already" | "stale"

export interface ConfirmItem {
  readonly transfer: PendingTransfer
  readonly confirmation: Confirmation
}

/**
 * Port: turning stored transfers into deposits. Each confirmation and each revert is one
 * transaction with its notification event (the outbox), so a state change is never without its
 * event nor an event without its change. Storage failures are defects.
 */
export class DepositBook extends Context.Tag("@collector/core/DepositBook")<
  DepositBook,
  {
    readonly pending: (network: Network) => Effect.Effect<ReadonlyArray<PendingTransfer>>
    /** Books the items in one transaction; an outcome per item, in order. */
    readonly confirmAll: (items: ReadonlyArray<ConfirmItem>, at: Date) => Effect.Effect<ReadonlyArray<BookingOutcome>>
    /**
     * Confirmed deposits in blocks from `from` on whose block is no longer among the stored
     * canonical blocks (a reorganisation dropped it). The block, not the stored transfer, is the
     * evidence: a lost transfer row is restored by the integrity check, never read as a revert.
     */
    readonly orphaned: (network: Network, from: bigint) => Effect.Effect<ReadonlyArray<DepositId>>
    /** Reverts the deposit if it is still confirmed and still orphaned; true when it did. */
    readonly revert: (network: Network, id: DepositId, from: bigint, at: Date) => Effect.Effect<boolean>
  }
>() {}
