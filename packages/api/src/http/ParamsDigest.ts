/**
 * The parameters digest used by idempotency (docs/api-platform.md, idempotency): a retry with the same
 * `request_id` is the same request only if this digest matches.
 *
 * It is taken over the parsed body, not the raw bytes, because the spec compares parameters: a
 * retry that reorders keys or changes whitespace (and so is signed afresh) is still the same
 * request, while any change of a value is not.
 */
import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js"

/** The idempotency key itself, excluded so that the digest describes only the parameters. */
const idempotencyKeyField = "request_id"

/**
 * Lowercase hex SHA-256 of the canonical JSON of `body` without its top-level `request_id`.
 * A nested `request_id` is an ordinary parameter and stays.
 */
export const paramsDigest = (body: Record<string, unknown>): string => {
  // A null-prototype copy, so that an own `__proto__` key from JSON.parse is copied as data
  // instead of replacing the copy's prototype.
  const params: Record<string, unknown> = Object.create(null)
  for (const key of Object.keys(body)) {
    if (key !== idempotencyKeyField) params[key] = body[key]
  }
  return bytesToHex(sha256(utf8ToBytes(canonicalJson(params))))
}

/** Either literal output or a value still to be written. */
type Pending = { readonly text: string } | { readonly value: unknown }

/**
 * Deterministic JSON text of a JSON value: object keys sorted recursively (UTF-16 code-unit
 * order), arrays in their order, no whitespace, strings and numbers as `JSON.stringify` writes
 * them. For values that came from `JSON.parse` this is the RFC 8785 (JCS) form.
 *
 * Numbers are whatever `JSON.parse` made of them, so digits beyond double precision are lost
 * before they get here; that is why IDs and amounts travel as strings.
 *
 * Iterative rather than recursive: a body within the size limit can nest tens of thousands of
 * levels deep, which would overflow the call stack.
 *
 * Throws on anything `JSON.parse` cannot produce (undefined, functions, bigint, non-finite
 * numbers): the digest is persisted, so silently dropping or coercing a value would be a bug.
 */
export const canonicalJson = (root: unknown): string => {
  let out = ""
  const pending: Array<Pending> = [{ value: root }]
  while (pending.length > 0) {
    const item = pending.pop()!
    if ("text" in item) {
      out += item.text
      continue
    }
    const value = item.value
    if (value === null) {
      out += "null"
    } else if (typeof value === "boolean" || typeof value === "string") {
      out += JSON.stringify(value)
    } else if (typeof value === "number") {
      if (!Number.isFinite(value)) throw new TypeError("canonicalJson: non-finite number")
      out += JSON.stringify(value)
    } else if (Array.isArray(value)) {
      // Pushed in reverse so that popping yields them in order.
      pending.push({ text: "]" })
      for (let i = value.length - 1; i >= 0; i--) {
        pending.push({ value: value[i] })
        if (i > 0) pending.push({ text: "," })
      }
      out += "["
    } else if (typeof value === "object") {
      const record = value as Record<string, unknown>
      // Object.keys plus indexing keeps an own `__proto__` key an ordinary member.
      const keys = Object.keys(record).sort()
      pending.push({ text: "}" })
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]
        pending.push({ value: record[key] })
        pending.push({ text: (i > 0 ? "," : "") + JSON.stringify(key) + ":" })
      }
      out += "{"
    } else {
      throw new TypeError(`canonicalJson: ${typeof value} is not a JSON value`)
    }
  }
  return out
}
