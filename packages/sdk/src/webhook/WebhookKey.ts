import { Redacted } from "effect"

const keyBytes = 32
const canonicalBase64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/** The app's webhook key as printed at provisioning: base64 of 32 bytes, plain or Redacted. */
export type WebhookKeyInput = string | Redacted.Redacted<string>

/**
 * The key bytes, or a defect when the configured key is not base64 of 32 bytes. A bad key is
 * the receiver's misconfiguration, not the sender's fault, so it is not a `WebhookRejected`; the
 * message names the problem only, never the text.
 */
export const webhookKeyBytes = (input: WebhookKeyInput): Uint8Array => {
  const text = Redacted.isRedacted(input) ? Redacted.value(input) : input
  const bytes = canonicalBase64.test(text) ? Buffer.from(text, "base64") : undefined
  if (bytes === undefined || bytes.length !== keyBytes) throw new Error("webhook key must be the base64 text of 32 bytes")
  return bytes
}
