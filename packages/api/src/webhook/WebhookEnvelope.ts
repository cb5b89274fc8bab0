import { Either, Schema } from "effect"
import { createCipheriv, createDecipheriv } from "node:crypto"

/** The body of every webhook delivery (docs/notifications.md, the envelope). */
export const WebhookEnvelope = Schema.Struct({
  version: Schema.Literal("1"),
  algorithm: Schema.Literal("AES-256-GCM"),
  nonce: Schema.String,
  ciphertext: Schema.String,
  timestamp: Schema.String
})
export type WebhookEnvelope = typeof WebhookEnvelope.Type

const tagBytes = 16
const nonceBytes = 12
const keyBytes = 32

/**
 * Seals `plaintext` (the stored payload's JSON text) under the app's 32-byte webhook key:
 * AES-256-GCM with `nonce` (12 bytes, new for every attempt), the UTF-8 bytes of `timestamp` as
 * additional data, and the 16-byte tag appended to the ciphertext.
 */
export const sealEnvelope = (input: {
  readonly key: Uint8Array
  readonly plaintext: string
  readonly timestamp: string
  readonly nonce: Uint8Array
}): WebhookEnvelope => {
  if (input.key.length !== keyBytes) throw new RangeError("webhook key must be 32 bytes")
  if (input.nonce.length !== nonceBytes) throw new RangeError("nonce must be 12 bytes")
  const cipher = createCipheriv("aes-256-gcm", input.key, input.nonce, { authTagLength: tagBytes })
  cipher.setAAD(Buffer.from(input.timestamp, "utf8"))
  const sealed = Buffer.concat([cipher.update(input.plaintext, "utf8"), cipher.final(), cipher.getAuthTag()])
  return {
    version: "1",
    algorithm: "AES-256-GCM",
    nonce: Buffer.from(input.nonce).toString("base64"),
    ciphertext: sealed.toString("base64"),
    timestamp: input.timestamp
  }
}

export type EnvelopeRejection = "bad nonce" | "bad ciphertext" | "authentication failed"

const strictBase64 = (text: string): Buffer | null =>
  /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text) ? Buffer.from(text, "base64") : null

/** Opens a sealed envelope; fails when anything (key, nonce, timestamp, ciphertext, tag) was altered. */
export const openEnvelope = (key: Uint8Array, envelope: WebhookEnvelope): Either.Either<string, EnvelopeRejection> => {
  if (key.length !== keyBytes) throw new RangeError("webhook key must be 32 bytes")
  const nonce = strictBase64(envelope.nonce)
  if (nonce === null || nonce.length !== nonceBytes) return Either.left("bad nonce")
  const sealed = strictBase64(envelope.ciphertext)
  if (sealed === null || sealed.length < tagBytes) return Either.left("bad ciphertext")
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, nonce, { authTagLength: tagBytes })
    decipher.setAAD(Buffer.from(envelope.timestamp, "utf8"))
    decipher.setAuthTag(sealed.subarray(sealed.length - tagBytes))
    const plain = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - tagBytes)), decipher.final()])
    return Either.right(plain.toString("utf8"))
  } catch {
    return Either.left("authentication failed")
  }
}
