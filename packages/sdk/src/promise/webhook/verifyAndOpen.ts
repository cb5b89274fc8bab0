import { Effect, Either } from "effect"
import { receiveWebhook } from "../../webhook/receiveWebhook.js"
import type { WebhookEvent } from "../../webhook/WebhookEvent.js"
import { headerValue, type WebhookHeaders } from "../../webhook/WebhookHeaders.js"
import { webhookKeyBytes, type WebhookKeyInput } from "../../webhook/WebhookKey.js"
import { WebhookVerificationError } from "./WebhookVerificationError.js"

export interface VerifyOptions {
  /** The app this endpoint receives for; when given, a delivery naming another app in X-App-Id is refused. */
  readonly appId?: string
}

/**
 * Verifies one delivery and returns its decrypted, typed event, or throws a
 * `WebhookVerificationError`. `rawBody` must be the body exactly as received (a Buffer or the
 * text), never a re-serialised parsed object. Throws a `TypeError` when `webhookKey` is not the
 * base64 text of 32 bytes (the receiver's misconfiguration, not the sender's fault).
 *
 * It neither de-duplicates nor orders revisions: `createWebhookHandler` and the middleware do.
 */
export const verifyAndOpen = (rawBody: string | Uint8Array, headers: WebhookHeaders, webhookKey: WebhookKeyInput, options: VerifyOptions = {}): WebhookEvent => {
  try {
    webhookKeyBytes(webhookKey)
  } catch (error) {
    throw new TypeError((error as Error).message)
  }
  // Without an app ID to hold it to, the header is taken as sent; the key is per app anyway.
  const appId = options.appId ?? headerValue(headers, "x-app-id") ?? ""
  const received = Effect.runSync(Effect.either(receiveWebhook({ body: rawBody, headers, webhookKey, appId })))
  if (Either.isLeft(received)) throw new WebhookVerificationError(received.left.reason, received.left.detail)
  return received.right
}
