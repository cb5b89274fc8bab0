import { Clock, Context, Effect, Layer, Metric } from "effect"
import { confirmationsUnder } from "../settings/ConfirmationRule.js"
import type { DepositId, EventId } from "../deposits/Deposit.js"
import type { Network } from "../kernel/Network.js"
import type { Booking } from "./Booking.js"
import { bookingOf, idsNeeded, logState, reversalOf } from "./BookingRules.js"
import { type ConfirmItem, DepositBook } from "./DepositBook.js"
import type { ChainTip, ScanPosition } from "./ScanLedger.js"
import { depositsBooked } from "./ScanMetrics.js"

// Bookings per transaction: a catch-up books hundreds at once, a caught-up scanner one or two.
const bookingChunk = 500

export interface ConfirmationPass {
  readonly confirmed: number
  readonly reverted: number
}

const logKey = (txid: string, logIndex: number) => `${txid}:${logIndex}`

/**
 * Brings deposits in line with the stored chain: first reverts confirmed deposits whose
 * transfer a reorganisation removed, then books stored transfers whose tenant's rule is met.
 * Counts only verified blocks: `block_N` against the stored cursor (every block up to it is
 * linked by parent hashes), `solidified` against the node's solidified block, never above the cursor.
 * Every decision is the core's (BookingRules); the DepositBook stores it or reports that what it
 * was decided on has changed, and then the next pass decides again on fresh reads.
 */
const make = Effect.gen(function*() {
  const book = yield* DepositBook

  const revertOrphans = (network: Network, from: bigint, at: Date) =>
    Effect.gen(function*() {
      let reverted = 0
      for (const deposit of yield* book.orphaned(network, from)) {
        const { events } = yield* book.reserveIds({ deposits: 0, events: 1 })
        const written = yield* book.revert(network, reversalOf(deposit, events[0]!, from, at)).pipe(
          Effect.as(true),
          Effect.catchTag("BookingConflict", () => Effect.succeed(false))
        )
        if (written) {
          reverted++
          yield* Metric.increment(depositsBooked(network, "deposit.reverted"))
        }
      }
      return reverted
    })

  /** Books one chunk in one transaction; how many new revisions it confirmed (0 on a conflict). */
  const bookChunk = (network: Network, items: ReadonlyArray<ConfirmItem>, at: Date) =>
    Effect.gen(function*() {
      const stored = new Map(
        (yield* book.depositsOf(network, items.map((item) => item.transfer))).map((d) => [logKey(d.txid, d.logIndex), d] as const)
      )
      const states = items.map((item) => logState(item.transfer, stored.get(logKey(item.transfer.txid, item.transfer.logIndex))))
      const needed = states.map(idsNeeded)
      const ids = yield* book.reserveIds({
        deposits: needed.reduce((n, x) => n + x.deposits, 0),
        events: needed.reduce((n, x) => n + x.events, 0)
      })
      const depositIds: Array<DepositId> = [...ids.deposits]
      const eventIds: Array<EventId> = [...ids.events]
      const bookings: Array<Booking> = []
      items.forEach((item, i) => {
        const booking = bookingOf(item, states[i]!, {
          ...(needed[i]!.deposits > 0 ? { deposit: depositIds.shift()! } : {}),
          ...(needed[i]!.events > 0 ? { event: eventIds.shift()! } : {})
        }, at)
        if (booking !== null) bookings.push(booking)
      })
      if (bookings.length === 0) return 0
      return yield* book.book(network, bookings).pipe(
        Effect.as(bookings.filter((b) => b._tag === "Confirm").length),
        // A Confirm's event is always deposit.confirmed (a new revision in the confirmed state).
        Effect.tap((confirmed) => (confirmed > 0 ? Metric.incrementBy(depositsBooked(network, "deposit.confirmed"), confirmed) : Effect.void)),
        Effect.catchTag("BookingConflict", () => Effect.succeed(0))
      )
    })

  const run = (network: Network, tip: ChainTip, cursor: ScanPosition, oldestStored: bigint) =>
    Effect.gen(function*() {
      const now = new Date(yield* Clock.currentTimeMillis)
      const reverted = yield* revertOrphans(network, oldestStored, now)
      const verified = {
        head: cursor.number,
        solidified: tip.solidified < cursor.number ? tip.solidified : cursor.number
      }
      const due: Array<ConfirmItem> = []
      for (const transfer of yield* book.pending(network)) {
        const outcome = confirmationsUnder(transfer.rule, transfer.blockNumber, verified)
        if (outcome.met) due.push({ transfer, confirmation: { rule: transfer.rule, confirmations: outcome.confirmations } })
      }
      let confirmed = 0
      for (let start = 0; start < due.length; start += bookingChunk) {
        confirmed += yield* bookChunk(network, due.slice(start, start + bookingChunk), now)
      }
      return { confirmed, reverted } satisfies ConfirmationPass
    })

  return { run }
})

export class Confirmations extends Context.Tag("@collector/core/Confirmations")<
  Confirmations,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(Confirmations, make)
}
