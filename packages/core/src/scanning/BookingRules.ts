import type { Deposit, DepositId, EventId } from "../deposits/Deposit.js"
import { depositEvent } from "../notifications/OutboxEvent.js"
import type { Booking, Reversal } from "./Booking.js"
import type { ConfirmItem } from "./DepositBook.js"
import type { PendingTransfer } from "./PendingTransfer.js"

/**
 * How a stored log meets the deposit stored for it, if any:
 * - `New`: no deposit yet: book revision 1;
 * - `Again`: its deposit was reverted (the block left the chain) and the log is back: book the next revision;
 * - `Already`: its deposit is confirmed in this very block: nothing new to tell;
 * - `Wait`: its deposit is confirmed in another block, which a reorganisation replaced: the
 *   revert of that confirmation comes first (the next pass books this one).
 */
export type LogState =
  | { readonly _tag: "New" }
  | { readonly _tag: "Again"; readonly stored: Deposit }
  | { readonly _tag: "Already"; readonly stored: Deposit }
  | { readonly _tag: "Wait" }

export const logState = (log: PendingTransfer, stored: Deposit | undefined): LogState =>
  stored === undefined
    ? { _tag: "New" }
    : stored.status === "reverted"
    ? { _tag: "Again", stored }
    : stored.blockHash === log.blockHash
    ? { _tag: "Already", stored }
    : { _tag: "Wait" }

/** The IDs a log in this state needs drawn before it can be booked. */
export const idsNeeded = (state: LogState): { readonly deposits: number; readonly events: number } =>
  state._tag === "New" ? { deposits: 1, events: 1 } : state._tag === "Again" ? { deposits: 0, events: 1 } : { deposits: 0, events: 0 }

/** The block and rule a confirmation records; the rest of a revision is the stored deposit's. */
const confirmedIn = (item: ConfirmItem, eventId: EventId) => ({
  eventId,
  status: "confirmed" as const,
  blockNumber: item.transfer.blockNumber,
  blockHash: item.transfer.blockHash,
  blockTime: item.transfer.blockTime,
  confirmationType: item.confirmation.rule,
  confirmations: item.confirmation.confirmations
})

/**
 * The booking of a due log, given its state and the IDs drawn for it (`ids.deposit` only for a
 * new deposit, `ids.event` for a new or repeated one); null when it must wait.
 */
export const bookingOf = (
  item: ConfirmItem,
  state: LogState,
  ids: { readonly deposit?: DepositId; readonly event?: EventId },
  at: Date
): Booking | null => {
  const log = item.transfer
  switch (state._tag) {
    case "Wait":
      return null
    case "Already":
      return { _tag: "MarkBooked", log, deposit: state.stored }
    case "New": {
      const deposit: Deposit = {
        id: ids.deposit!,
        tenantId: log.tenantId,
        network: log.network,
        walletId: log.walletId,
        customId: log.customId,
        address: log.address,
        source: log.source,
        contract: log.contract,
        amount: log.amount,
        txid: log.txid,
        logIndex: log.logIndex,
        createdAt: at,
        revision: 1,
        ...confirmedIn(item, ids.event!)
      }
      return { _tag: "Confirm", log, deposit, replaces: null, event: depositEvent(deposit, at), totalChange: deposit.amount, at }
    }
    case "Again": {
      // The log is the same one; what the deposit was created with (its snapshot of the wallet) stays.
      const deposit: Deposit = { ...state.stored, revision: state.stored.revision + 1, ...confirmedIn(item, ids.event!) }
      return {
        _tag: "Confirm",
        log,
        deposit,
        replaces: { revision: state.stored.revision },
        event: depositEvent(deposit, at),
        totalChange: deposit.amount,
        at
      }
    }
  }
}

/** The revert of a confirmed deposit whose block is gone: the next revision keeps the block it undoes. */
export const reversalOf = (deposit: Deposit, eventId: EventId, from: bigint, at: Date): Reversal => {
  const reverted: Deposit = { ...deposit, status: "reverted", revision: deposit.revision + 1, eventId }
  return {
    deposit: reverted,
    replaces: { revision: deposit.revision },
    event: depositEvent(reverted, at),
    totalChange: -deposit.amount,
    from,
    at
  }
}
