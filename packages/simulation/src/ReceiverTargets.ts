import { Webhook } from "@collector/core"
import { Effect, Either, Layer } from "effect"

/** The webhook host every tenant's URL names: the in-process receiver. */
export const receiverHost = "hooks.simulated.test"

/** Where the simulated receiver listens: an address of the documentation range, public by the rules. */
const receiverAddress = "203.0.113.10"

/**
 * Webhook URLs as the service checks them (the production URL rules), with the one host there is
 * in a simulation, the tenants' receiver, and no other name.
 */
export const make = Webhook.WebhookTargets.of({
  resolvePublic: (url) =>
    Effect.suspend(() => {
      const parsed = Webhook.parseWebhookUrl(url)
      if (Either.isLeft(parsed)) return Effect.fail(parsed.left)
      if (parsed.right.host !== receiverHost) return Effect.fail(new Webhook.WebhookUrlRejected({ reason: `${parsed.right.host} does not resolve` }))
      return Effect.succeed([{ host: receiverHost, address: receiverAddress, family: 4 as const, port: parsed.right.port }])
    })
})

export const layer = Layer.succeed(Webhook.WebhookTargets, make)
