import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { encodeRfc3986, parseCanonicalQuery } from "./CanonicalQuery.js"

interface SignatureVector {
  readonly name: string
  readonly raw_query: string
  readonly canonical_query: string
}

const vectors: { cases: ReadonlyArray<SignatureVector> } = JSON.parse(
  readFileSync(new URL("../../../../test-fixtures/signature-vectors.json", import.meta.url), "utf8")
)

const canonicalOf = (raw: string): string => {
  const result = parseCanonicalQuery(raw)
  if (!result.ok) throw new Error(`expected ${JSON.stringify(raw)} to parse, got ${result.reason}`)
  return result.canonical
}

describe("parseCanonicalQuery", () => {
  it("has vectors to check", () => {
    expect(vectors.cases.length).toBeGreaterThanOrEqual(5)
  })

  for (const vector of vectors.cases) {
    it(`matches the shared vector: ${vector.name}`, () => {
      expect(canonicalOf(vector.raw_query)).toBe(vector.canonical_query)
    })
  }

  it("gives the empty string for an empty query", () => {
    expect(parseCanonicalQuery("")).toEqual({ ok: true, canonical: "", params: [] })
  })

  it("returns decoded parameters in canonical order, keeping + literal", () => {
    const result = parseCanonicalQuery("sort=balance_usdt&custom=a+b%20c&hide_zero=&flag")
    expect(result).toEqual({
      ok: true,
      canonical: "custom=a%2Bb%20c&flag=&hide_zero=&sort=balance_usdt",
      params: [
        ["custom", "a+b c"],
        ["flag", ""],
        ["hide_zero", ""],
        ["sort", "balance_usdt"]
      ]
    })
  })

  it("splits each pair at the first = only", () => {
    expect(parseCanonicalQuery("a==b=c")).toMatchObject({ ok: true, canonical: "a=%3Db%3Dc", params: [["a", "=b=c"]] })
  })

  it("normalises lower-case escapes and needlessly escaped unreserved characters", () => {
    expect(canonicalOf("a=%2f%2F")).toBe("a=%2F%2F")
    expect(canonicalOf("%41%7e=%2D%2e%5F")).toBe("A~=-._")
  })

  it("encodes reserved characters that may appear literally", () => {
    expect(canonicalOf("q=a*b!c'd(e)f:g@h/i?j,k;l$m")).toBe(
      "q=a%2Ab%21c%27d%28e%29f%3Ag%40h%2Fi%3Fj%2Ck%3Bl%24m"
    )
  })

  it("sorts by encoded key in byte order (upper case before lower case)", () => {
    expect(canonicalOf("b=1&B=2&a=3&_=4&~=5&0=6")).toBe("0=6&B=2&_=4&a=3&b=1&~=5")
  })

  it("sorts by the encoded form, not the decoded text", () => {
    // Decoded, "é" sorts after "z"; encoded, "%C3%A9" starts with "%" and sorts first.
    expect(canonicalOf("z=1&%C3%A9=2")).toBe("%C3%A9=2&z=1")
  })

  it("decodes and re-encodes non-ASCII text as UTF-8", () => {
    expect(parseCanonicalQuery("name=%E4%B8%AD%E6%96%87&emoji=%F0%9F%98%80")).toEqual({
      ok: true,
      canonical: "emoji=%F0%9F%98%80&name=%E4%B8%AD%E6%96%87",
      params: [
        ["emoji", "😀"],
        ["name", "中文"]
      ]
    })
  })

  it("keeps an encoded byte order mark as data", () => {
    expect(parseCanonicalQuery("%EF%BB%BFa=1&a=2")).toMatchObject({
      ok: true,
      canonical: "%EF%BB%BFa=1&a=2",
      params: [
        ["\uFEFFa", "1"],
        ["a", "2"]
      ]
    })
  })

  describe("repeated keys", () => {
    it.each([
      ["a=1&a=2", "a"],
      ["a=1&a=1", "a"],
      ["a&a", "a"],
      ["x=1&page=1&page=", "page"],
      ["a=1&%61=2", "a"],
      ["%E4%B8%AD=1&%e4%b8%ad=2", "中"]
    ])("rejects %s", (raw, key) => {
      expect(parseCanonicalQuery(raw)).toEqual({ ok: false, reason: "repeated_key", key })
    })

    it("treats keys differing only in case as different", () => {
      expect(canonicalOf("a=1&A=2")).toBe("A=2&a=1")
    })
  })

  describe("malformed queries", () => {
    it.each([
      ["a lone %", "a=%"],
      ["a truncated escape", "a=%4"],
      ["a truncated escape at the end of the key", "a%4=1"],
      ["non-hex escape digits", "a=%zz"],
      ["a half-hex escape", "a=%G1"],
      ["a signed escape", "a=%+1"],
      ["a lone continuation byte", "a=%80"],
      ["an invalid byte 0xff", "a=%FF"],
      ["a truncated multibyte sequence", "a=%E4%B8"],
      ["a truncated multibyte sequence followed by ASCII", "a=%E4%B8x"],
      ["an overlong encoding of /", "a=%C0%AF"],
      ["an encoded UTF-16 surrogate", "a=%ED%A0%80"],
      ["invalid UTF-8 in the key", "%FF=1"],
      ["an empty segment in the middle", "a=1&&b=2"],
      ["a lone &", "&"],
      ["a trailing &", "a=1&"],
      ["a leading &", "&a=1"],
      ["an empty key", "=1"],
      ["a lone =", "="],
      ["a raw space", "a=b c"],
      ["a raw non-ASCII character", "a=中"],
      ["a raw control character", "a=b\tc"],
      ["a raw DEL", "a=b\x7f"]
    ])("rejects %s", (_name, raw) => {
      expect(parseCanonicalQuery(raw)).toEqual({ ok: false, reason: "malformed" })
    })

    it("reports the first problem in the order sent", () => {
      expect(parseCanonicalQuery("a=1&a=2&b=%zz")).toMatchObject({ reason: "repeated_key" })
      expect(parseCanonicalQuery("b=%zz&a=1&a=2")).toMatchObject({ reason: "malformed" })
    })
  })
})

describe("encodeRfc3986", () => {
  it("keeps unreserved characters and encodes every other UTF-8 byte in upper case", () => {
    expect(encodeRfc3986("AZaz09-._~")).toBe("AZaz09-._~")
    expect(encodeRfc3986("a b+中/*%")).toBe("a%20b%2B%E4%B8%AD%2F%2A%25")
  })

  it("round-trips through parseCanonicalQuery", () => {
    const key = "k é"
    const value = "v+1 & 2 = 3 😀"
    expect(parseCanonicalQuery(`${encodeRfc3986(key)}=${encodeRfc3986(value)}`)).toMatchObject({
      ok: true,
      params: [[key, value]]
    })
  })
})
