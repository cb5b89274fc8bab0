import type { WebhookRejected } from "./WebhookRejected.js"

/** A framework-neutral HTTP answer: write `status`, `headers` and `body` as they are. */
export interface WebhookResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

const json = (status: number, body: string): WebhookResponse => ({ status, headers: { "content-type": "application/json" }, body })

/**
 * The contract's acknowledgement: HTTP 200 whose JSON body has top-level `code` 0. Any
 * other answer is a failed attempt and the service delivers again. Sent for a booked event, for
 * a duplicate, and for an equal or older deposit revision (those were received, just not booked).
 */
export const webhookAcknowledgement: WebhookResponse = json(200, "{\"code\":0}")

/**
 * A forged, tampered, misrouted or unreadable delivery: 400, so it is never taken as delivered.
 * A genuine one that fails here (for example a payload this SDK version cannot read) is retried
 * by the service and can be re-pushed after the receiver is fixed.
 */
export const webhookRejection = (rejected: WebhookRejected): WebhookResponse =>
  json(400, JSON.stringify({ code: 400, message: `webhook rejected: ${rejected.reason}` }))

/** Another request is booking the same event right now; the service's next attempt settles it. */
export const webhookInProgress: WebhookResponse = json(409, "{\"code\":409,\"message\":\"event is being processed\"}")

/** The receiver's own booking or store failed; not acknowledged, so the event comes again. */
export const webhookFailure: WebhookResponse = json(500, "{\"code\":500,\"message\":\"receiver could not book the event\"}")
