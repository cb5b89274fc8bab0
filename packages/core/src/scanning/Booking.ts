import type { Deposit } from "../deposits/Deposit.js"
import type { OutboxEvent } from "../notifications/OutboxEvent.js"
import type { PendingTransfer } from "./PendingTransfer.js"

/**
 * What the core decided about one stored transfer log, for the storage to write atomically.
 * Each case names the stored state it was decided on (the log unbooked in its block, the deposit
 * at a revision or absent); the storage refuses the whole write when that state has changed.
 *
 * - `Confirm`: the log becomes a deposit revision: a new deposit (revision 1, `replaces` null) or a
 *   reverted one confirmed again; the log is marked booked, the event and the scope's confirmed
 *   total change with it.
 * - `MarkBooked`: the deposit is confirmed in this very block already; the log is marked booked and
 *   nothing new is told.
 */
export type Booking =
  | {
    readonly _tag: "Confirm"
    readonly log: PendingTransfer
    readonly deposit: Deposit
    readonly replaces: { readonly revision: number } | null
    readonly event: OutboxEvent
    /** Added to the scope's confirmed USDT. */
    readonly totalChange: bigint
    readonly at: Date
  }
  | {
    readonly _tag: "MarkBooked"
    readonly log: PendingTransfer
    readonly deposit: Deposit
  }

/**
 * A confirmed deposit whose block a reorganisation dropped, reverted: its new revision and event.
 * The storage writes it only while the deposit is still at `replaces.revision` and its block is
 * still not among the stored blocks from `from` on.
 */
export interface Reversal {
  readonly deposit: Deposit
  readonly replaces: { readonly revision: number }
  readonly event: OutboxEvent
  /** Added to the scope's confirmed USDT (negative). */
  readonly totalChange: bigint
  readonly from: bigint
  readonly at: Date
}
