import { Notifications } from "@collector/core"
import { Effect, Layer } from "effect"

/**
 * Planted defect `foreign-url` (the delivery ledger): an attempt is sent to the URL of the last
 * attempt started on its network in the same claim, whatever its tenant (the URL kept in a
 * variable across the loop instead of read per event); the round stored is right.
 */
export const layer = Layer.effect(
  Notifications.DeliveryLedger,
  Effect.map(Notifications.DeliveryLedger, (real) =>
    Notifications.DeliveryLedger.of({
      ...real,
      claimDue: (request) =>
        Effect.map(real.claimDue(request), (events) => {
          let url: string | undefined
          return events.map((event) => {
            if (event.started === null) return event
            url ??= event.started.url
            return { ...event, started: { ...event.started, url } }
          })
        })
    }))
)
