import { describe, expect, it } from "@effect/vitest"
import { parseRawJson } from "./RawJson.js"

describe("parseRawJson", () => {
  it("returns every number as the text it was written as", () => {
    const text = `{"pay_amount": 8.43276, "sun": 9007199254740993, "max": 9223372036854775807, "neg": -2, "negTrx": -0.000001, ` +
      `"exp": 1E+3, "small": -1.5e-3, "zero": 0, "list": [1, 2.50], "flags": [true, false, null]}`
    expect(parseRawJson(text)).toEqual({
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
    expect(parseRawJson(`{"id\\u0031": "12", "s": "a \\"12\\" 3", "hex": "0a02696f", "u": "\\u00e9 1.5"}`)).toEqual({
      id1: "12",
      s: "a \"12\" 3",
      hex: "0a02696f",
      u: "é 1.5"
    })
  })

  it("keeps the last of duplicate keys, as JSON.parse does", () => {
    expect(parseRawJson(`{"pay_amount": 1, "pay_amount": 8.43276}`)).toEqual({ pay_amount: "8.43276" })
  })

  it("rejects text that is not JSON, malformed number literals included", () => {
    for (const bad of ["<html>", "", `{"a": 01}`, `{"a": 1.2.3}`, `{"a": 1-2}`, `{"a": -}`, `{"a": .5}`, `{"a": 1e}`, `{"a": 1}x`]) {
      expect(() => parseRawJson(bad), bad).toThrow()
    }
  })
})
