import type { WebhookRejectionReason } from "../../webhook/WebhookRejected.js"
import { CollectorError } from "../CollectorErrors.js"

/**
 * A delivery that is not a genuine, well-formed notification for this app (forged, tampered,
 * misrouted or unreadable). `reason` says which check refused it; the message never carries key
 * material, so it may be logged.
 */
export class WebhookVerificationError extends CollectorError {
  readonly reason: WebhookRejectionReason
  readonly detail: string
  constructor(reason: WebhookRejectionReason, detail: string) {
    super(`webhook rejected: ${reason} (${detail})`)
    this.reason = reason
    this.detail = detail
  }
}
