import { Notifications, Scanning } from "@collector/core"
import { Effect, Layer } from "effect"

/**
 * Planted defect `double-book`: the first new deposit is stored twice, the copy under fresh
 * deposit and event IDs, in the same write as the real one (as a store that lost its unique
 * index on the log would let happen).
 */
export const layer = Layer.effect(
  Scanning.DepositBook,
  Effect.map(Scanning.DepositBook, (real) => {
    let planted = false
    return Scanning.DepositBook.of({
      ...real,
      book: (network, bookings) =>
        Effect.suspend(() => {
          const target = planted ? undefined : bookings.find((b) => b._tag === "Confirm" && b.replaces === null)
          if (target === undefined || target._tag !== "Confirm") return real.book(network, bookings)
          return Effect.flatMap(real.reserveIds({ deposits: 1, events: 1 }), ({ deposits, events }) => {
            const deposit = { ...target.deposit, id: deposits[0]!, eventId: events[0]! }
            const copy: Scanning.Booking = { ...target, deposit, event: Notifications.depositEvent(deposit, target.at) }
            return Effect.tap(real.book(network, [...bookings, copy]), () => Effect.sync(() => (planted = true)))
          })
        })
    })
  })
)
