import { parseStrictJsonBody } from "@collector/api"
import { parseRfc3339 } from "@collector/api"
import { openEnvelope, WebhookEnvelope } from "@collector/api"
import { Effect, Either, ParseResult, Schema } from "effect"
import { decodeWebhookEvent, type WebhookEvent } from "./WebhookEvent.js"
import { headerValue, isJsonContentType, type WebhookHeaders } from "./WebhookHeaders.js"
import { webhookKeyBytes, type WebhookKeyInput } from "./WebhookKey.js"
import { WebhookRejected, type WebhookRejectionReason } from "./WebhookRejected.js"

export interface ReceiveWebhookInput {
  /** The raw request body exactly as received. */
  readonly body: string | Uint8Array
  readonly headers: WebhookHeaders
  /** The app's webhook key: base64 of 32 bytes, as printed at provisioning. */
  readonly webhookKey: WebhookKeyInput
  /** The app ID this endpoint receives for; a delivery for another app is refused. */
  readonly appId: string
}

// The contract's envelope, and nothing more: unknown members are refused (a later envelope
// version must not be half-read), and the timestamp must be a real RFC 3339 time since it is the
// authenticated data.
const StrictEnvelope = WebhookEnvelope.pipe(
  Schema.filter((envelope) => parseRfc3339(envelope.timestamp) !== undefined || "timestamp must be an RFC 3339 time")
)
const decodeEnvelope = Schema.decodeUnknownEither(StrictEnvelope, { onExcessProperty: "error", errors: "first" })

const reject = (reason: WebhookRejectionReason, detail: string) => new WebhookRejected({ reason, detail })

const parseError = (error: ParseResult.ParseError) => ParseResult.TreeFormatter.formatErrorSync(error)

const strictJson = (bytes: Uint8Array, reason: WebhookRejectionReason): Either.Either<Record<string, unknown>, WebhookRejected> => {
  const parsed = parseStrictJsonBody(bytes)
  return parsed.ok ? Either.right(parsed.value) : Either.left(reject(reason, parsed.message.replace(/^invalid request: /, "")))
}

const check = (ok: boolean, reason: WebhookRejectionReason, detail: string): Either.Either<void, WebhookRejected> =>
  ok ? Either.void : Either.left(reject(reason, detail))

/**
 * Verifies one webhook delivery and returns its typed event.
 *
 * Checks, in order: JSON content type; X-App-Id is this app; the body is one strict JSON object
 * that is exactly the envelope; it opens under the key (which authenticates the ciphertext and
 * the timestamp); the plaintext is exactly one of the five event bodies; X-Event-Id and
 * X-Event-Type repeat the payload's. The headers are not authenticated by the encryption, which
 * is why they must agree with the payload before anyone routes or de-duplicates on them.
 *
 * It does not de-duplicate nor apply revisions: see `processOnce` and `applyDepositRevision`.
 */
export const receiveWebhook = (input: ReceiveWebhookInput): Effect.Effect<WebhookEvent, WebhookRejected> =>
  Effect.suspend(() => {
    const key = webhookKeyBytes(input.webhookKey)
    const bytes = typeof input.body === "string" ? new TextEncoder().encode(input.body) : input.body
    return Either.gen(function*() {
      yield* check(isJsonContentType(headerValue(input.headers, "content-type")), "content-type-not-json", "Content-Type must be application/json")
      yield* check(headerValue(input.headers, "x-app-id") === input.appId, "app-id-mismatch", "X-App-Id is missing or names another app")
      const json = yield* strictJson(bytes, "malformed-envelope")
      const envelope = yield* Either.mapLeft(decodeEnvelope(json), (error) => reject("invalid-envelope", parseError(error)))
      const plaintext = yield* Either.mapLeft(openEnvelope(key, envelope), (failure) =>
        reject(failure === "bad nonce" ? "bad-nonce" : failure === "bad ciphertext" ? "bad-ciphertext" : "authentication-failed", failure))
      const payload = yield* strictJson(new TextEncoder().encode(plaintext), "malformed-payload")
      const event = yield* Either.mapLeft(decodeWebhookEvent(payload), (error) => reject("invalid-payload", parseError(error)))
      yield* check(headerValue(input.headers, "x-event-id") === event.event_id, "event-id-mismatch", "X-Event-Id differs from the payload's event_id")
      yield* check(headerValue(input.headers, "x-event-type") === event.event_type, "event-type-mismatch", "X-Event-Type differs from the payload's event_type")
      return event
    })
  })
