/**
 * The X-Sign request signature (docs/authentication.md).
 *
 * Built on @noble/hashes rather than node:crypto because the browser SDK signs with this same
 * code; one implementation on both sides means they cannot drift apart.
 */
import { hmac } from "@noble/hashes/hmac.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js"

export interface CanonicalStringInput {
  /** HTTP method; signed upper-case. */
  readonly method: string
  /** The path exactly as sent, without the query. */
  readonly path: string
  /** The X-App-Id header as sent. */
  readonly appId: string
  /** The X-Timestamp header as sent. */
  readonly timestamp: string
  /** The text after `Bearer `; "" for the token operation, which has no token yet. */
  readonly accessToken: string
  /** CANONICAL_QUERY from `parseCanonicalQuery`; "" when there is no query. */
  readonly canonicalQuery: string
  /** The raw body bytes as received, before any parsing (key order and whitespace matter). */
  readonly body: Uint8Array
}

/** BODY_SHA256: lowercase hex SHA-256 of the raw body bytes (an empty body hashes the empty string). */
export const bodySha256Hex = (body: Uint8Array): string => bytesToHex(sha256(body))

/**
 * The text that is signed. Fields are joined by "\n"; none of them can contain a line feed
 * (HTTP header values and request targets cannot), so the layout is unambiguous.
 */
export const canonicalString = (input: CanonicalStringInput): string =>
  [
    input.method.toUpperCase(),
    input.path,
    input.appId,
    input.timestamp,
    input.accessToken,
    input.canonicalQuery,
    bodySha256Hex(input.body)
  ].join("\n")

/** X-Sign: lowercase hex HMAC-SHA256 of the UTF-8 canonical string, keyed by the UTF-8 secret. */
export const sign = (secret: string, canonical: string): string => bytesToHex(signatureBytes(secret, canonical))

const signatureBytes = (secret: string, canonical: string): Uint8Array =>
  hmac(sha256, utf8ToBytes(secret), utf8ToBytes(canonical))

// The header must be exactly this shape; upper-case hex is refused rather than normalised so that
// one request has one valid X-Sign.
const signaturePattern = /^[0-9a-f]{64}$/

/**
 * Checks a provided X-Sign against the expected one.
 *
 * The comparison visits every byte regardless of where the first difference is, so response
 * timing does not reveal how much of a forged signature was right. The shape check before it
 * only depends on the attacker's own input, never on the secret.
 */
export const verifySignature = (secret: string, canonical: string, provided: string): boolean => {
  if (!signaturePattern.test(provided)) return false
  return constantTimeEqual(signatureBytes(secret, canonical), hexToBytes(provided))
}

/** Equality of two byte arrays in time that depends only on their length. */
export const constantTimeEqual = (a: Uint8Array, b: Uint8Array): boolean => {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a[i] ^ b[i]
  return difference === 0
}
