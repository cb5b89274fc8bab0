/**
 * The CANONICAL_QUERY line of the request signature (docs/authentication.md).
 *
 * Client and server must derive byte-identical text from the query that actually travelled, so
 * the parse is deliberately strict: anything two implementations could read differently is
 * rejected as `malformed` rather than guessed at. The SDK reuses this module, so it must stay
 * free of Node-only APIs.
 */

/** One decoded query parameter; order follows the canonical (sorted) order. */
export type QueryParam = readonly [key: string, value: string]

export type CanonicalQueryResult =
  | {
      readonly ok: true
      /** The text signed as CANONICAL_QUERY ("" when there is no query). */
      readonly canonical: string
      /** Decoded parameters, in canonical order; keys are unique. */
      readonly params: ReadonlyArray<QueryParam>
    }
  | {
      readonly ok: false
      /** The spec makes a repeated key a 400 before any signature check. */
      readonly reason: "repeated_key"
      /** The decoded key that appeared more than once. */
      readonly key: string
    }
  | {
      readonly ok: false
      readonly reason: "malformed"
      readonly key?: undefined
    }

// `ignoreBOM` keeps a decoded U+FEFF as data: without it the decoder would silently drop a
// leading `%EF%BB%BF`, making two different keys decode alike.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true })
const utf8Encoder = new TextEncoder()

const hexDigits = "0123456789ABCDEF"

const isUnreserved = (byte: number): boolean =>
  (byte >= 0x41 && byte <= 0x5a) || // A-Z
  (byte >= 0x61 && byte <= 0x7a) || // a-z
  (byte >= 0x30 && byte <= 0x39) || // 0-9
  byte === 0x2d || // -
  byte === 0x2e || // .
  byte === 0x5f || // _
  byte === 0x7e // ~

const hexValue = (code: number): number => {
  if (code >= 0x30 && code <= 0x39) return code - 0x30
  if (code >= 0x41 && code <= 0x46) return code - 0x41 + 10
  if (code >= 0x61 && code <= 0x66) return code - 0x61 + 10
  return -1
}

/** RFC 3986 encoding of bytes: unreserved kept, every other byte `%XX` upper-case. */
const encodeBytes = (bytes: Uint8Array): string => {
  let out = ""
  for (const byte of bytes) {
    out += isUnreserved(byte)
      ? String.fromCharCode(byte)
      : "%" + hexDigits[byte >> 4] + hexDigits[byte & 0x0f]
  }
  return out
}

/**
 * RFC 3986 encoding of text as UTF-8, the same encoding the canonical query uses. Exported so a
 * client can build the query it sends with exactly the bytes it signs.
 */
export const encodeRfc3986 = (text: string): string => encodeBytes(utf8Encoder.encode(text))

/**
 * Percent-decodes one key or value into bytes, or `undefined` when it cannot be read one way only.
 *
 * Only printable ASCII may appear literally. The request target is bytes on the wire, and HTTP
 * stacks disagree on how raw non-ASCII or control bytes become text (Node, for one, reads them
 * as Latin-1), so signing over them could not be reproduced reliably by both sides. `+` is not
 * a space here: the spec keeps it as a literal plus.
 */
const percentDecode = (text: string): Uint8Array | undefined => {
  const bytes = new Uint8Array(text.length)
  let length = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === 0x25) {
      const high = i + 2 < text.length ? hexValue(text.charCodeAt(i + 1)) : -1
      const low = high >= 0 ? hexValue(text.charCodeAt(i + 2)) : -1
      if (low < 0) return undefined
      bytes[length++] = (high << 4) | low
      i += 2
    } else if (code > 0x20 && code < 0x7f) {
      bytes[length++] = code
    } else {
      return undefined
    }
  }
  return bytes.subarray(0, length)
}

type DecodedPart = { readonly text: string; readonly encoded: string }

const decodePart = (raw: string): DecodedPart | undefined => {
  const bytes = percentDecode(raw)
  if (bytes === undefined) return undefined
  let text: string
  try {
    text = utf8.decode(bytes)
  } catch {
    return undefined
  }
  // Re-encoding the validated bytes (not the JS string) keeps the canonical form a pure function
  // of what was sent.
  return { text, encoded: encodeBytes(bytes) }
}

// The encoded strings are pure ASCII, so UTF-16 code-unit comparison equals byte order.
const compareAscii = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

const malformed: CanonicalQueryResult = { ok: false, reason: "malformed" }

/**
 * Computes CANONICAL_QUERY from the raw query string (the text after `?`, without the `?`).
 *
 * Our own choices where the contract is silent, all rejected as `malformed`:
 * - empty segments (`a=1&&b=2`, a lone `&`, a leading or trailing `&`): a client following the
 *   algorithm never produces them, and dropping them silently would let two different requests
 *   share one signature;
 * - an empty key (`=1`): no operation has such a parameter;
 * - raw characters other than printable ASCII (see `percentDecode`).
 *
 * An empty raw query yields `canonical: ""`. Whether a bare `?` was present is not visible here;
 * POST routes must check that themselves (every POST rejects any query, even a bare `?`).
 * When the query has several problems, the first one in the order sent is reported.
 */
export const parseCanonicalQuery = (rawQuery: string): CanonicalQueryResult => {
  if (rawQuery === "") return { ok: true, canonical: "", params: [] }

  const seen = new Set<string>()
  const pairs: Array<{ key: DecodedPart; value: DecodedPart }> = []
  for (const segment of rawQuery.split("&")) {
    if (segment === "") return malformed
    const eq = segment.indexOf("=")
    const rawKey = eq < 0 ? segment : segment.slice(0, eq)
    const rawValue = eq < 0 ? "" : segment.slice(eq + 1)
    if (rawKey === "") return malformed
    const key = decodePart(rawKey)
    const value = decodePart(rawValue)
    if (key === undefined || value === undefined) return malformed
    if (seen.has(key.text)) return { ok: false, reason: "repeated_key", key: key.text }
    seen.add(key.text)
    pairs.push({ key, value })
  }

  // Keys are unique here, so the value tie-break cannot fire; it stays to mirror the spec.
  pairs.sort(
    (a, b) => compareAscii(a.key.encoded, b.key.encoded) || compareAscii(a.value.encoded, b.value.encoded)
  )
  return {
    ok: true,
    canonical: pairs.map(({ key, value }) => `${key.encoded}=${value.encoded}`).join("&"),
    params: pairs.map(({ key, value }) => [key.text, value.text] as const)
  }
}
