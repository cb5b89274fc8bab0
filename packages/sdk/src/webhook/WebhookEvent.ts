import { Schema } from "effect"
import { DepositEvent } from "./DepositEvent.js"
import { SweepResultEvent } from "./SweepResultEvent.js"

/** Every decrypted notification, discriminated by `event_type`. */
export const WebhookEvent = Schema.Union(DepositEvent, SweepResultEvent)
export type WebhookEvent = typeof WebhookEvent.Type

export const isDepositEvent = (event: WebhookEvent): event is DepositEvent =>
  event.event_type === "deposit.confirmed" || event.event_type === "deposit.reverted"

/**
 * Decodes a parsed plaintext. Unknown members are an error, not dropped: a payload this SDK
 * does not fully understand must not be acknowledged as if it had been booked.
 */
export const decodeWebhookEvent = Schema.decodeUnknownEither(WebhookEvent, { onExcessProperty: "error", errors: "first" })
