import { DeliveryLedger, type DueEvent } from "@collector/core"
import { Effect, Layer } from "effect"

/**
 * Planted defect `foreign-app` (the delivery ledger): a claimed event carries the app credential
 * of the first tenant claimed on its network (the credential looked up by network alone), so its
 * envelope is sealed with, and its request names, another tenant's app.
 */
export const layer = Layer.effect(
  DeliveryLedger,
  Effect.map(DeliveryLedger, (real) => {
    const firstApp = new Map<string, DueEvent["app"]>()
    return DeliveryLedger.of({
      ...real,
      claimDue: (request) =>
        Effect.map(real.claimDue(request), (events) =>
          events.map((event) => {
            if (event.app === null) return event
            if (!firstApp.has(event.network)) firstApp.set(event.network, event.app)
            return { ...event, app: firstApp.get(event.network)! }
          }))
    })
  })
)
