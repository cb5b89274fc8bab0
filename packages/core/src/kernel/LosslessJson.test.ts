import { describe, expect, it } from "@effect/vitest"
import { parse } from "./LosslessJson.js"

const parseAll = (text: string) => parse(text, "allAsText")
const parseUnsafeAsText = (text: string) => parse(text, "unsafeIntegersAsText")

describe("allAsText", () => {
  it("returns every number as the text it was written as", () => {
    const text = `{"pay_amount": 8.43276, "sun": 9007199254740993, "max": 9223372036854775807, "neg": -2, "negTrx": -0.000001, ` +
      `"exp": 1E+3, "small": -1.5e-3, "zero": 0, "list": [1, 2.50], "flags": [true, false, null]}`
    expect(parseAll(text)).toEqual({
      pay_amount: "8.43276",
      sun: "9007199254740993",
      max: "9223372036854775807",
      neg: "-2",
      negTrx: "-0.000001",
      exp: "1E+3",
      small: "-1.5e-3",
      zero: "0",
      list: ["1", "2.50"],
      flags: [true, false, null]
    })
  })

  it("leaves digits inside strings and keys as they are", () => {
    expect(parseAll(`{"id\\u0031": "12", "s": "a \\"12\\" 3", "hex": "0a02696f", "u": "\\u00e9 1.5"}`)).toEqual({
      id1: "12",
      s: "a \"12\" 3",
      hex: "0a02696f",
      u: "é 1.5"
    })
  })

  it("keeps the last of duplicate keys, as JSON.parse does", () => {
    expect(parseAll(`{"pay_amount": 1, "pay_amount": 8.43276}`)).toEqual({ pay_amount: "8.43276" })
  })

  it("rejects text that is not JSON, malformed number literals included", () => {
    for (const bad of ["<html>", "", `{"a": 01}`, `{"a": 1.2.3}`, `{"a": 1-2}`, `{"a": -}`, `{"a": .5}`, `{"a": 1e}`, `{"a": 1}x`]) {
      expect(() => parseAll(bad), bad).toThrow()
    }
  })
})

describe("unsafeIntegersAsText", () => {
  it("keeps integers above 2^53 exact as digit strings", () => {
    expect(parseUnsafeAsText(`{"balance": 99999999999000001, "neg": -99999999999000001}`)).toEqual({
      balance: "99999999999000001",
      neg: "-99999999999000001"
    })
    // JSON.parse would have rounded it.
    expect(JSON.parse(`{"balance": 99999999999000001}`).balance).toBe(99999999999000000)
  })

  it("returns safe integers as numbers, from the first unsafe one on digit strings, up to the int64 bounds", () => {
    const text = `[9007199254740991, -9007199254740991, 9007199254740992, 9007199254740993, 1234567890123456, 9223372036854775807, -9223372036854775808, 0, -0]`
    expect(parseUnsafeAsText(text)).toEqual([
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
    expect(parseUnsafeAsText(text)).toEqual({
      a: 123456789012345,
      b: [1.12345678901234567, 1e300, -0.5],
      c: "1234567890123456789",
      d: "x\"1234567890123456789"
    })
  })

  it("reads a TRX decimal, negative numbers and exponents as JSON.parse does", () => {
    const text = `{"trx": 8.43276, "neg": -2, "exp": 1E+3, "small": -1.5e-3, "unsafeExp": 1e20, "digits\\u0031": "12345678901234567890"}`
    expect(parseUnsafeAsText(text)).toEqual(JSON.parse(text))
  })

  it("keeps the last of duplicate keys, as JSON.parse does", () => {
    expect(parseUnsafeAsText(`{"balance": 1, "balance": 99999999999000001}`)).toEqual({ balance: "99999999999000001" })
  })

  it("still rejects text that is not JSON", () => {
    expect(() => parseUnsafeAsText("<html>")).toThrow()
    for (const bad of [`{"a": 01}`, `{"a": 1.}`, `{"a": -}`, `{"a": +1}`, `{"a": 1}x`, `[1,]`, `{"a": "\t"}`]) {
      expect(() => parseUnsafeAsText(bad), bad).toThrow()
    }
  })
})
