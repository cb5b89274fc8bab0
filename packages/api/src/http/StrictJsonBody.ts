/**
 * Strict reading of a POST body (the contract's request rules common to all operations, docs/api-platform.md:
 * one UTF-8 JSON object; duplicate keys, several values, top-level arrays and `null` rejected).
 *
 * Strictness matters beyond tidiness: the signature covers the raw bytes, and a body that
 * different parsers read differently (duplicate keys: first wins or last wins?) could mean one
 * thing to a proxy or the client and another to the server under the same signature.
 */
import { createScanner } from "jsonc-parser"

export type StrictJsonBodyResult =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly message: string }

export const strictJsonBodyMessages = {
  notUtf8: "invalid request: body is not valid UTF-8",
  byteOrderMark: "invalid request: body must not start with a byte order mark",
  malformed: "invalid request: malformed JSON body",
  notSingleObject: "invalid request: body must be a single JSON object",
  duplicateKey: (key: string): string => `invalid request: duplicate JSON key ${JSON.stringify(key)}`
} as const

// `fatal` turns invalid sequences (stray 0xff, overlong forms, truncated characters, encoded
// surrogates) into an error instead of U+FFFD. The BOM is checked on the bytes before decoding,
// because the decoder would otherwise drop it silently.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true })

const startsWithByteOrderMark = (body: Uint8Array): boolean =>
  body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf

// JSON's own whitespace set (RFC 8259), narrower than String.prototype.trim's.
const onlyJsonWhitespace = /^[ \t\n\r]*$/

const fail = (message: string): StrictJsonBodyResult => ({ ok: false, message })

/**
 * Validates and parses a raw POST body.
 *
 * Syntax is left to `JSON.parse`, which follows RFC 8259 exactly (no comments, trailing commas,
 * single quotes, NaN, leading zeros or a second value). jsonc-parser, lenient by design, is used
 * only for the one thing `JSON.parse` hides: duplicate keys.
 */
export const parseStrictJsonBody = (body: Uint8Array): StrictJsonBodyResult => {
  if (body.length === 0) return fail(strictJsonBodyMessages.notSingleObject)
  if (startsWithByteOrderMark(body)) return fail(strictJsonBodyMessages.byteOrderMark)

  let text: string
  try {
    text = utf8.decode(body)
  } catch {
    return fail(strictJsonBodyMessages.notUtf8)
  }
  // Whitespace alone carries no value at all, which is the empty-body case rather than a typo.
  if (onlyJsonWhitespace.test(text)) return fail(strictJsonBodyMessages.notSingleObject)

  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return fail(strictJsonBodyMessages.malformed)
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return fail(strictJsonBodyMessages.notSingleObject)
  }

  const duplicate = findDuplicateKey(text)
  if (duplicate !== undefined) return fail(strictJsonBodyMessages.duplicateKey(duplicate))
  return { ok: true, value: value as Record<string, unknown> }
}

// jsonc-parser's SyntaxKind values. Its typings declare them as an ambient const enum, which
// `isolatedModules` forbids reading, so the few needed are restated; tests catch any drift.
const Token = {
  OpenBrace: 1,
  CloseBrace: 2,
  OpenBracket: 3,
  CloseBracket: 4,
  Comma: 5,
  String: 10,
  EOF: 17
} as const

type Container = { readonly keys: Set<string> | undefined; expectingKey: boolean }

/**
 * The first key that repeats within one object, compared after unescaping (`"a"` and `"\u0061"`
 * are the same key), or `undefined`.
 *
 * Walks the token stream with an explicit stack instead of jsonc-parser's recursive `visit`,
 * which overflows the call stack at a few thousand levels of nesting while a 64 KiB body can
 * nest far deeper. Assumes `text` is already known to be valid JSON.
 */
export const findDuplicateKey = (text: string): string | undefined => {
  const scanner = createScanner(text, true)
  const stack: Array<Container> = []
  for (let token = scanner.scan(); token !== Token.EOF; token = scanner.scan()) {
    const top = stack[stack.length - 1]
    switch (token) {
      case Token.OpenBrace:
        stack.push({ keys: new Set(), expectingKey: true })
        break
      case Token.OpenBracket:
        stack.push({ keys: undefined, expectingKey: false })
        break
      case Token.CloseBrace:
      case Token.CloseBracket:
        stack.pop()
        break
      case Token.Comma:
        if (top?.keys !== undefined) top.expectingKey = true
        break
      case Token.String:
        if (top?.keys !== undefined && top.expectingKey) {
          // getTokenValue() is the unescaped text, so escaped spellings compare equal.
          const key = scanner.getTokenValue()
          if (top.keys.has(key)) return key
          top.keys.add(key)
          top.expectingKey = false
        }
        break
    }
  }
  return undefined
}
