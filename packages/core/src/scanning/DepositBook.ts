import { Context, Data, type Effect } from "effect"
import type { ConfirmationRule } from "../settings/ConfirmationRule.js"
import type { Deposit, DepositId, EventId } from "../deposits/Deposit.js"
import type { Booking, Reversal } from "./Booking.js"
import type { PendingTransfer } from "./PendingTransfer.js"
import type { Network } from "../kernel/Network.js"

export interface Confirmation {
  readonly rule: ConfirmationRule
  readonly confirmations: number | null
}

export interface ConfirmItem {
  readonly transfer: PendingTransfer
  readonly confirmation: Confirmation
}

/** A stored log by its place in its transaction. */
export interface LogKey {
  readonly txid: string
  readonly logIndex: number
}

/** The state a booking or reversal was decided on has changed since it was read: nothing was written. */
export class BookingConflict extends Data.TaggedError("BookingConflict")<{ readonly network: Network; readonly reason: string }> {}

/**
 * Port: the deposits the scanner books. It reads the facts the core decides on and writes what
 * the core decided (`Booking`, `Reversal`: each deposit revision with its outbox event and its
 * change to the scope's total) in one transaction, so a state change is never without its event
 * nor an event without its change. It decides nothing: a write whose expected state no longer
 * holds fails as a whole with BookingConflict. Storage failures are defects.
 */
export class DepositBook extends Context.Tag("@collector/core/DepositBook")<
  DepositBook,
  {
    /** Stored logs not yet booked, with their tenant's rule, in block, transaction and log order. */
    readonly pending: (network: Network) => Effect.Effect<ReadonlyArray<PendingTransfer>>
    /** The deposits already stored for these logs (at most one each). */
    readonly depositsOf: (network: Network, logs: ReadonlyArray<LogKey>) => Effect.Effect<ReadonlyArray<Deposit>>
    /** Fresh deposit and event IDs (event IDs from the sequence sweep tasks share), for revisions about to be booked. */
    readonly reserveIds: (
      counts: { readonly deposits: number; readonly events: number }
    ) => Effect.Effect<{ readonly deposits: ReadonlyArray<DepositId>; readonly events: ReadonlyArray<EventId> }>
    /**
     * Writes the bookings in one transaction. Each expects its log still stored unbooked in its
     * block, and its deposit absent (a new one) or at the revision it replaces or marks.
     */
    readonly book: (network: Network, bookings: ReadonlyArray<Booking>) => Effect.Effect<void, BookingConflict>
    /**
     * Confirmed deposits in blocks from `from` on whose block is no longer among the stored
     * canonical blocks (a reorganisation dropped it). The block, not the stored transfer, is the
     * evidence: a lost transfer row is restored by the integrity check, never read as a revert.
     */
    readonly orphaned: (network: Network, from: bigint) => Effect.Effect<ReadonlyArray<Deposit>>
    /** Writes the reversal in one transaction, if the deposit is still at the revision it replaces and still orphaned. */
    readonly revert: (network: Network, reversal: Reversal) => Effect.Effect<void, BookingConflict>
  }
>() {}
