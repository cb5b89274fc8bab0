import { describe, expect, it } from "@effect/vitest"
import { parseLosslessJson } from "./LosslessJson.js"

describe("parseLosslessJson", () => {
  it("keeps integers above 2^53 exact as digit strings", () => {
    expect(parseLosslessJson(`{"balance": 99999999999000001, "neg": -99999999999000001}`)).toEqual({
      balance: "99999999999000001",
      neg: "-99999999999000001"
    })
    // JSON.parse would have rounded it.
    expect(JSON.parse(`{"balance": 99999999999000001}`).balance).toBe(99999999999000000)
  })

  it("returns safe integers as numbers, from the first unsafe one on digit strings, up to the int64 bounds", () => {
    const text = `[9007199254740991, -9007199254740991, 9007199254740992, 9007199254740993, 1234567890123456, 9223372036854775807, -9223372036854775808, 0, -0]`
    expect(parseLosslessJson(text)).toEqual([
      9007199254740991,
      -9007199254740991,
      "9007199254740992",
      "9007199254740993",
      1234567890123456,
      "9223372036854775807",
      "-9223372036854775808",
      0,
      -0
    ])
  })

  it("leaves numbers that fit, fractions, exponents and strings alone", () => {
    const text = `{"a": 123456789012345, "b": [1.12345678901234567, 1e300, -0.5], "c": "1234567890123456789", "d": "x\\"1234567890123456789"}`
    expect(parseLosslessJson(text)).toEqual({
      a: 123456789012345,
      b: [1.12345678901234567, 1e300, -0.5],
      c: "1234567890123456789",
      d: "x\"1234567890123456789"
    })
  })

  it("reads a TRX decimal, negative numbers and exponents as JSON.parse does", () => {
    const text = `{"trx": 8.43276, "neg": -2, "exp": 1E+3, "small": -1.5e-3, "unsafeExp": 1e20, "digits\\u0031": "12345678901234567890"}`
    expect(parseLosslessJson(text)).toEqual(JSON.parse(text))
  })

  it("keeps the last of duplicate keys, as JSON.parse does", () => {
    expect(parseLosslessJson(`{"balance": 1, "balance": 99999999999000001}`)).toEqual({ balance: "99999999999000001" })
  })

  it("still rejects text that is not JSON", () => {
    expect(() => parseLosslessJson("<html>")).toThrow()
    for (const bad of [`{"a": 01}`, `{"a": 1.}`, `{"a": -}`, `{"a": +1}`, `{"a": 1}x`, `[1,]`, `{"a": "\t"}`]) {
      expect(() => parseLosslessJson(bad), bad).toThrow()
    }
  })
})
