// TENANT CODE. The tenant's own book of deposits, fed by notifications (receiver.js) and by
// deposit queries (client.js) alike. Every deposit state change is a new revision under the same
// deposit `id`: confirmed (revision 1), reverted by a chain reorganisation (2), confirmed again
// (3), ... Only a revision above the highest one booked is booked; an equal or older one is
// acknowledged and ignored, so revisions arriving late, twice, or by both paths book once.
//
// The two stores are the SDK's in-memory ones: enough for a demonstration, forgotten on restart.
// A real receiver implements `WebhookEventStore` and `DepositRevisionStore` on its database, in
// the same transaction as the booking (docs/notifications-receiver.md has the SQL shape).
import {
  applyDepositRevision,
  DepositRevisionStore,
  makeMemoryDepositRevisionStore,
  makeMemoryWebhookEventStore,
  WebhookEventStore
} from "@collector/sdk"
import { Effect } from "effect"

export const makeLedger = () => {
  const eventStore = makeMemoryWebhookEventStore()
  const revisionStore = makeMemoryDepositRevisionStore()
  /** deposit id -> the booked record (its highest revision). */
  const deposits = new Map()
  /** wallet id -> credited USDT in base units (6 decimals), as a BigInt. */
  const credited = new Map()
  /** Every booking, in order: what was applied, from which path. */
  const bookings = []

  /** Runs an SDK step that needs the stores. */
  const run = (effect) =>
    Effect.runPromise(effect.pipe(
      Effect.provideService(WebhookEventStore, eventStore),
      Effect.provideService(DepositRevisionStore, revisionStore)
    ))

  /**
   * Books one revision: a `confirmed` one credits the wallet, a `reverted` one takes the credit
   * back. Called by the SDK only for a revision above the highest booked for the deposit. In a
   * real system this is one database transaction with the store writes.
   */
  const bookDeposit = (record, via) =>
    Effect.sync(() => {
      const before = deposits.get(record.id)
      const wasCredited = before?.status === "confirmed"
      const isCredited = record.status === "confirmed"
      const change = isCredited === wasCredited ? 0n : isCredited ? BigInt(record.amount) : -BigInt(record.amount)
      credited.set(record.wallet_id, (credited.get(record.wallet_id) ?? 0n) + change)
      deposits.set(record.id, record)
      bookings.push({ id: record.id, revision: record.revision, status: record.status, amount: record.amount, via })
    })

  /** A sweep's result (sweep.succeeded, .failed, .cancelled): booked once per event, no revisions. */
  const bookSweep = (event) =>
    Effect.sync(() => void bookings.push({ id: event.task_id, status: event.status, amount: event.amount, via: "webhook" }))

  return {
    run,
    bookDeposit,
    bookSweep,
    /** A record from the deposit list or detail: the same 24 fields, the same rule. "Applied" or "Acknowledged". */
    applyQueried: async (record) => (await run(applyDepositRevision(record, bookDeposit(record, "query"))))._tag,
    /** The booked state of one deposit, or undefined. */
    deposit: (id) => deposits.get(id),
    creditedTo: (walletId) => credited.get(walletId) ?? 0n,
    bookings
  }
}
