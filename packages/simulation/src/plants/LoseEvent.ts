import { Memory, Scanning } from "@collector/core"
import { Effect, Layer } from "effect"

/**
 * Planted defect `lose-event`: the event of the first deposit revision booked is dropped in the
 * very transaction that writes it, so the revision stands without its event (as an outbox insert
 * lost by the store would leave it).
 */
export const layer = Layer.effect(
  Scanning.DepositBook,
  Effect.gen(function*() {
    const real = yield* Scanning.DepositBook
    const db = yield* Memory.MemoryDatabase
    let planted = false
    return Scanning.DepositBook.of({
      ...real,
      book: (network, bookings) =>
        Effect.suspend(() => {
          const target = planted ? undefined : bookings.find((b) => b._tag === "Confirm")
          if (target === undefined || target._tag !== "Confirm") return real.book(network, bookings)
          return db.transaction(Effect.zipRight(
            real.book(network, bookings),
            Effect.sync(() => {
              db.table(Memory.MemoryTables.events).delete(target.event.id)
              planted = true
            })
          ))
        })
    })
  })
)
