import type { ClaimResult, EventKey } from "../../webhook/WebhookEventStore.js"

export type { ClaimResult, EventKey }

/** What `bookIfHigher` did: booked (with the booking's value), or acknowledged an equal or older revision. */
export type RevisionBooking<A> = { readonly applied: true; readonly value: A } | { readonly applied: false; readonly highestBooked: number }

/**
 * Where a receiver keeps what it booked, as Promises (the contract's receiver rules 1 and 2):
 * which events were booked (`claim`, `complete`, `release`) and the highest deposit revision
 * booked per deposit (`bookIfHigher`).
 *
 * `claim` must be atomic (of concurrent claims of one event exactly one gets `claimed`), and
 * `bookIfHigher` must decide, book and record as one unit per deposit. Production needs a
 * persistent store: the service re-sends an event for up to 24 hours and re-pushes it later,
 * across receiver restarts. examples/tenant-webhook-pg has a PostgreSQL one.
 */
export interface WebhookStore {
  claim(key: EventKey): Promise<ClaimResult>
  /** The owner booked the event: from now on every claim answers `processed`. */
  complete(key: EventKey): Promise<void>
  /** The owner failed to book it: the next delivery may claim it again. */
  release(key: EventKey): Promise<void>
  /** Runs `book` only for a revision above the highest booked for `depositId`, and records it only if `book` resolves. */
  bookIfHigher<A>(depositId: string, revision: number, book: () => Promise<A>): Promise<RevisionBooking<A>>
}
