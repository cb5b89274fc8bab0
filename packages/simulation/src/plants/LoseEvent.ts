import { DepositBook, MemoryDatabase, MemoryTables } from "@collector/core"
import { Effect, Layer } from "effect"

/**
 * Planted defect `lose-event`: the event of the first deposit revision booked is dropped in the
 * very transaction that writes it, so the revision stands without its event (as an outbox insert
 * lost by the store would leave it).
 */
export const layer = Layer.effect(
  DepositBook,
  Effect.gen(function*() {
    const real = yield* DepositBook
    const db = yield* MemoryDatabase
    let planted = false
    return DepositBook.of({
      ...real,
      book: (network, bookings) =>
        Effect.suspend(() => {
          const target = planted ? undefined : bookings.find((b) => b._tag === "Confirm")
          if (target === undefined || target._tag !== "Confirm") return real.book(network, bookings)
          return db.transaction(Effect.zipRight(
            real.book(network, bookings),
            Effect.sync(() => {
              db.table(MemoryTables.events).delete(target.event.id)
              planted = true
            })
          ))
        })
    })
  })
)
