import { Data } from "effect"

/**
 * Why a delivery was refused. Each is a fact about the request, never about the key: the text
 * may be logged and returned to the sender, so it must not help anyone guess key material.
 */
export type WebhookRejectionReason =
  | "content-type-not-json"
  | "app-id-mismatch"
  | "malformed-envelope"
  | "invalid-envelope"
  | "bad-nonce"
  | "bad-ciphertext"
  | "authentication-failed"
  | "malformed-payload"
  | "invalid-payload"
  | "event-id-mismatch"
  | "event-type-mismatch"

/**
 * A delivery that is not a genuine, well-formed notification for this app. The receiver answers
 * it with a non-200 status so that nothing is booked and a genuine sender would retry.
 */
export class WebhookRejected extends Data.TaggedError("WebhookRejected")<{
  readonly reason: WebhookRejectionReason
  /** Safe detail for logs (parse errors, which header); never key bytes. */
  readonly detail: string
}> {
  override get message(): string {
    return `webhook rejected: ${this.reason} (${this.detail})`
  }
}
