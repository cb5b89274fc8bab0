import { Scanning } from "@collector/core"
import { Effect, Layer } from "effect"

/**
 * Planted defect `record-time` (the deposit record): a confirmed deposit's notification says the
 * time it was stored where the block's time belongs (`block_time` copied from `created_at`); the
 * stored deposit is right.
 */
const slip = (booking: Scanning.Booking): Scanning.Booking => {
  if (booking._tag !== "Confirm") return booking
  const record = JSON.parse(booking.event.payload) as Record<string, unknown>
  return { ...booking, event: { ...booking.event, payload: JSON.stringify({ ...record, block_time: record["created_at"] }) } }
}

export const layer = Layer.effect(
  Scanning.DepositBook,
  Effect.map(Scanning.DepositBook, (real) => Scanning.DepositBook.of({ ...real, book: (network, bookings) => real.book(network, bookings.map(slip)) }))
)
