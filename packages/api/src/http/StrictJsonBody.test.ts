import { describe, expect, it } from "vitest"
import { findDuplicateKey, parseStrictJsonBody, strictJsonBodyMessages } from "./StrictJsonBody.js"

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)
const parseText = (text: string) => parseStrictJsonBody(utf8(text))
const bytes = (...values: ReadonlyArray<number>): Uint8Array => new Uint8Array(values)

const malformed = { ok: false, message: "invalid request: malformed JSON body" }
const notSingleObject = { ok: false, message: "invalid request: body must be a single JSON object" }
const notUtf8 = { ok: false, message: "invalid request: body is not valid UTF-8" }
const duplicate = (key: string) => ({ ok: false, message: `invalid request: duplicate JSON key "${key}"` })

describe("parseStrictJsonBody", () => {
  describe("accepts", () => {
    it("a plain object", () => {
      expect(parseText('{"custom_id":"user-42","request_id":"r1"}')).toEqual({
        ok: true,
        value: { custom_id: "user-42", request_id: "r1" }
      })
    })

    it("an empty object", () => {
      expect(parseText("{}")).toEqual({ ok: true, value: {} })
    })

    it("JSON whitespace around and inside the value", () => {
      expect(parseText(' \t\r\n{ "a" : [ 1 , 2 ] }\n')).toEqual({ ok: true, value: { a: [1, 2] } })
    })

    it("the same key in different objects and in arrays of objects", () => {
      expect(parseText('{"a":{"a":1},"b":[{"a":1},{"a":2}],"c":{"b":{"a":1}}}')).toMatchObject({ ok: true })
    })

    it("a key equal to a string value", () => {
      expect(parseText('{"a":"b","b":"a"}')).toMatchObject({ ok: true })
    })

    it("non-ASCII text and escapes", () => {
      expect(parseText('{"名前":"中文 😀","e":"\\u00e9\\n\\"","s":"\\ud83d\\ude00"}')).toEqual({
        ok: true,
        value: { 名前: "中文 😀", e: 'é\n"', s: "😀" }
      })
    })

    it("an own __proto__ key as ordinary data", () => {
      const result = parseText('{"__proto__":{"polluted":true}}')
      expect(result.ok).toBe(true)
      if (result.ok) {
        expect(Object.keys(result.value)).toEqual(["__proto__"])
        expect(({} as Record<string, unknown>).polluted).toBeUndefined()
      }
    })

    it("deeply nested objects and arrays (beyond what a recursive walk survives)", () => {
      const depth = 20_000
      const text = '{"a":'.repeat(depth) + '[[{"b":1}]]' + "}".repeat(depth)
      const result = parseText(text)
      expect(result.ok).toBe(true)
      let node: unknown = result.ok ? result.value : undefined
      for (let i = 0; i < depth; i++) node = (node as Record<string, unknown>).a
      expect(node).toEqual([[{ b: 1 }]])
    })

    it("a duplicate key hidden deep in a nesting", () => {
      const depth = 20_000
      const text = '{"a":'.repeat(depth) + '{"x":1,"x":2}' + "}".repeat(depth)
      expect(parseText(text)).toEqual(duplicate("x"))
    })
  })

  describe("rejects duplicate keys", () => {
    it.each([
      ["at the top level", '{"custom_id":"a","custom_id":"b"}', "custom_id"],
      ["with equal values", '{"a":1,"a":1}', "a"],
      ["separated by other keys", '{"a":1,"b":2,"c":3,"a":4}', "a"],
      ["in a nested object", '{"x":{"y":{"a":1,"a":2}}}', "a"],
      ["in an object inside an array", '{"items":[{"id":"1"},{"id":"2","id":"3"}]}', "id"],
      ["after a nested object closes", '{"a":{"b":1},"a":2}', "a"],
      ["spelled with a \\u escape", '{"a":1,"\\u0061":2}', "a"],
      ["spelled with escapes on both sides", '{"\\u0061":1,"\\u0061":2}', "a"],
      ["spelled with a surrogate-pair escape", '{"😀":1,"\\ud83d\\ude00":2}', "😀"],
      ["spelled with an escaped slash", '{"a/b":1,"a\\/b":2}', "a/b"],
      ["that are empty strings", '{"":1,"":2}', ""]
    ])("%s", (_name, text, key) => {
      expect(parseText(text)).toEqual(duplicate(key))
    })

    it("quotes the key safely in the message", () => {
      expect(parseText('{"a\\"b":1,"a\\"b":2}')).toEqual({ ok: false, message: 'invalid request: duplicate JSON key "a\\"b"' })
    })

    it("is not fooled by keys differing only in case", () => {
      expect(parseText('{"a":1,"A":2}')).toMatchObject({ ok: true })
    })
  })

  describe("rejects malformed JSON", () => {
    it.each([
      ["two objects", "{}{}"],
      ["two objects separated by whitespace", '{"a":1} {"b":2}'],
      ["an object followed by a scalar", '{"a":1} 1'],
      ["a trailing comma in an object", '{"a":1,}'],
      ["a trailing comma in an array", '{"a":[1,]}'],
      ["a line comment", '{"a":1} // note'],
      ["a block comment", '{/* note */"a":1}'],
      ["single quotes", "{'a':1}"],
      ["an unquoted key", "{a:1}"],
      ["NaN", '{"a":NaN}'],
      ["Infinity", '{"a":Infinity}'],
      ["a leading zero", '{"a":01}'],
      ["a leading plus", '{"a":+1}'],
      ["a bare decimal point", '{"a":.5}'],
      ["a hex number", '{"a":0x10}'],
      ["an unescaped control character in a string", '{"a":"x\ty"}'],
      ["an invalid escape", '{"a":"\\x41"}'],
      ["an unclosed object", '{"a":1'],
      ["an unclosed string", '{"a":"b}'],
      ["a non-JSON whitespace character", '\u00a0{"a":1}'],
      ["a NUL byte after the value", '{"a":1}\u0000'],
      ["garbage", "hello"]
    ])("%s", (_name, text) => {
      expect(parseText(text)).toEqual(malformed)
    })
  })

  describe("rejects anything but a single object", () => {
    it.each([
      ["an empty body", ""],
      ["a whitespace-only body", " \n\t "],
      ["a top-level array", '[{"a":1}]'],
      ["an empty array", "[]"],
      ["null", "null"],
      ["a number", "42"],
      ["a string", '"{}"'],
      ["true", "true"],
      ["false", "false"]
    ])("%s", (_name, text) => {
      expect(parseText(text)).toEqual(notSingleObject)
    })

    it("an empty body gets its own message, not the malformed one", () => {
      expect(parseStrictJsonBody(new Uint8Array()).ok).toBe(false)
      expect(parseStrictJsonBody(new Uint8Array())).toEqual({ ok: false, message: strictJsonBodyMessages.notSingleObject })
      expect(strictJsonBodyMessages.notSingleObject).not.toBe(strictJsonBodyMessages.malformed)
    })

    it("an array with duplicate keys inside is reported as not an object", () => {
      expect(parseText('[{"a":1,"a":2}]')).toEqual(notSingleObject)
    })
  })

  describe("rejects bytes that are not UTF-8", () => {
    const wrap = (...inner: ReadonlyArray<number>) => new Uint8Array([...utf8('{"a":"'), ...inner, ...utf8('"}')])

    it.each([
      ["a 0xff byte", wrap(0xff)],
      ["a 0xfe byte", wrap(0xfe)],
      ["a lone continuation byte", wrap(0x80)],
      ["an overlong two-byte encoding of /", wrap(0xc0, 0xaf)],
      ["an overlong three-byte encoding of NUL", wrap(0xe0, 0x80, 0x80)],
      ["a truncated three-byte sequence", wrap(0xe4, 0xb8)],
      ["a truncated four-byte sequence", wrap(0xf0, 0x9f, 0x98)],
      ["a truncated sequence at the very end", new Uint8Array([...utf8('{"a":1}'), 0xe4, 0xb8])],
      ["an encoded UTF-16 surrogate", wrap(0xed, 0xa0, 0x80)],
      ["a code point above U+10FFFF", wrap(0xf4, 0x90, 0x80, 0x80)],
      ["Latin-1 text", wrap(0xe9)]
    ])("%s", (_name, body) => {
      expect(parseStrictJsonBody(body)).toEqual(notUtf8)
    })

    it("UTF-16 encoded JSON", () => {
      const body = bytes(0x7b, 0x00, 0x7d, 0x00)
      expect(parseStrictJsonBody(body).ok).toBe(false)
    })
  })

  it("rejects a leading byte order mark", () => {
    expect(parseStrictJsonBody(bytes(0xef, 0xbb, 0xbf, ...utf8('{"a":1}')))).toEqual({
      ok: false,
      message: strictJsonBodyMessages.byteOrderMark
    })
  })

  it("rejects a byte order mark after leading whitespace as malformed", () => {
    expect(parseStrictJsonBody(bytes(0x20, 0xef, 0xbb, 0xbf, ...utf8('{"a":1}')))).toEqual(malformed)
  })

  it("accepts a Node Buffer", () => {
    expect(parseStrictJsonBody(Buffer.from('{"a":1}'))).toEqual({ ok: true, value: { a: 1 } })
  })
})

describe("findDuplicateKey", () => {
  it("returns the first repeated key or undefined", () => {
    expect(findDuplicateKey('{"a":1,"b":{"c":1,"c":2},"a":2}')).toBe("c")
    expect(findDuplicateKey('{"a":["a","a"],"b":"a"}')).toBeUndefined()
    expect(findDuplicateKey('{"a":[{"a":1}],"b":[[{"x":1},{"x":2}]]}')).toBeUndefined()
  })
})
