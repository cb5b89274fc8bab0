import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import { canonicalJson, paramsDigest } from "./ParamsDigest.js"
import { parseStrictJsonBody } from "./StrictJsonBody.js"

const sha256Hex = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex")

/** The digest of a body as the server sees it: raw text through the strict parser. */
const digestOf = (text: string): string => {
  const parsed = parseStrictJsonBody(new TextEncoder().encode(text))
  if (!parsed.ok) throw new Error(parsed.message)
  return paramsDigest(parsed.value)
}

describe("paramsDigest", () => {
  it("is the SHA-256 of the sorted, whitespace-free JSON without request_id", () => {
    const digest = paramsDigest({ wallet_ids: ["2", "1"], request_id: "r-1", amount: "1.5", mode: { b: true, a: null } })
    expect(digest).toBe(sha256Hex('{"amount":"1.5","mode":{"a":null,"b":true},"wallet_ids":["2","1"]}'))
    expect(digest).toMatch(/^[0-9a-f]{64}$/)
  })

  it("does not depend on key order, at any depth, or on whitespace", () => {
    const a = digestOf('{"request_id":"r-1","custom_id":"user-42","x":{"p":1,"q":[{"m":1,"n":2}]}}')
    const b = digestOf('{ "x" : { "q" : [ { "n" : 2 , "m" : 1 } ] , "p" : 1 } , "custom_id" : "user-42" , "request_id" : "r-1" }')
    expect(a).toBe(b)
  })

  it("does not depend on request_id", () => {
    expect(digestOf('{"request_id":"r-1","custom_id":"user-42"}')).toBe(digestOf('{"request_id":"r-2","custom_id":"user-42"}'))
    expect(digestOf('{"request_id":"r-1","custom_id":"user-42"}')).toBe(digestOf('{"custom_id":"user-42"}'))
  })

  it("keeps a nested request_id as a parameter", () => {
    expect(digestOf('{"request_id":"r","x":{"request_id":"1"}}')).not.toBe(digestOf('{"request_id":"r","x":{"request_id":"2"}}'))
    expect(digestOf('{"x":{"request_id":"1"}}')).not.toBe(digestOf('{"x":{}}'))
  })

  it("does not change the body it is given", () => {
    const body = { request_id: "r", a: 1 }
    paramsDigest(body)
    expect(body).toEqual({ request_id: "r", a: 1 })
  })

  it.each([
    ["a different string", '{"custom_id":"user-42"}', '{"custom_id":"user-43"}'],
    ["a different type for the same text", '{"amount":"1"}', '{"amount":1}'],
    ["null against absent", '{"note":null}', "{}"],
    ["null against the string null", '{"note":null}', '{"note":"null"}'],
    ["false against 0", '{"flag":false}', '{"flag":0}'],
    ["array order", '{"ids":["1","2"]}', '{"ids":["2","1"]}'],
    ["an extra array element", '{"ids":["1"]}', '{"ids":["1","1"]}'],
    ["a value moved to another key", '{"a":"1","b":"2"}', '{"a":"2","b":"1"}'],
    ["nesting", '{"a":{"b":"c"}}', '{"a":"{\\"b\\":\\"c\\"}"}'],
    ["an extra key", '{"a":1}', '{"a":1,"b":1}'],
    ["key case", '{"a":1}', '{"A":1}']
  ])("differs for %s", (_name, left, right) => {
    expect(digestOf(left)).not.toBe(digestOf(right))
  })

  it("treats equal numbers written differently as equal (they parse to the same value)", () => {
    expect(digestOf('{"n":1}')).toBe(digestOf('{"n":1.0}'))
    expect(digestOf('{"n":100}')).toBe(digestOf('{"n":1e2}'))
  })

  it("keeps an own __proto__ key as data", () => {
    const withProto = digestOf('{"__proto__":{"a":1},"request_id":"r"}')
    expect(withProto).toBe(sha256Hex('{"__proto__":{"a":1}}'))
    expect(withProto).not.toBe(digestOf("{}"))
  })
})

describe("canonicalJson", () => {
  it("writes scalars as JSON.stringify does", () => {
    expect(canonicalJson(null)).toBe("null")
    expect(canonicalJson(true)).toBe("true")
    expect(canonicalJson(0)).toBe("0")
    expect(canonicalJson(-0)).toBe("0")
    expect(canonicalJson(1.5e-7)).toBe("1.5e-7")
    expect(canonicalJson(1e21)).toBe("1e+21")
    expect(canonicalJson('quote " slash \\ nl \n tab \t ctl \u0001 中 😀')).toBe(
      '"quote \\" slash \\\\ nl \\n tab \\t ctl \\u0001 中 😀"'
    )
  })

  it("sorts keys recursively and keeps array order", () => {
    expect(canonicalJson({ b: [3, { z: 1, y: [] }, 1], a: {}, c: { e: "x", d: null } })).toBe(
      '{"a":{},"b":[3,{"y":[],"z":1},1],"c":{"d":null,"e":"x"}}'
    )
  })

  it("sorts keys by UTF-16 code units", () => {
    expect(canonicalJson({ b: 1, a: 2, B: 3, "é": 4, "😀": 5, "\uff61": 6, "": 7 })).toBe(
      '{"":7,"B":3,"a":2,"b":1,"é":4,"😀":5,"｡":6}'
    )
  })

  it("handles empty containers", () => {
    expect(canonicalJson({})).toBe("{}")
    expect(canonicalJson([])).toBe("[]")
    expect(canonicalJson([[], {}])).toBe("[[],{}]")
  })

  it("matches JSON.stringify for already-sorted values", () => {
    const value = { a: [1, "two", null, true, { b: [{}] }], c: { d: -1.25 } }
    expect(canonicalJson(value)).toBe(JSON.stringify(value))
  })

  it("survives nesting far deeper than the call stack", () => {
    const depth = 50_000
    let value: unknown = "leaf"
    for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { k: value }
    const text = canonicalJson(value)
    expect(text.length).toBe('"leaf"'.length + (depth / 2) * ("[]".length + '{"k":}'.length))
    // The outermost level is the last one wrapped: an object.
    expect(text).toBe('{"k":['.repeat(depth / 2) + '"leaf"' + "]}".repeat(depth / 2))
  })

  it.each([
    ["undefined", undefined],
    ["a nested undefined", { a: undefined }],
    ["NaN", { a: NaN }],
    ["Infinity", [Infinity]],
    ["a bigint", { id: 1n }],
    ["a function", { f: () => 1 }],
    ["a symbol", [Symbol("s")]]
  ])("throws on %s", (_name, value) => {
    expect(() => canonicalJson(value)).toThrow(TypeError)
  })
})
