import { describe, expect, it } from "@effect/vitest"
import { parseLosslessJson } from "./LosslessJson"

describe("parseLosslessJson", () => {
  it("keeps integers above 2^53 exact as digit strings", () => {
    expect(parseLosslessJson(`{"balance": 99999999999000001, "neg": -99999999999000001}`)).toEqual({
      balance: "99999999999000001",
      neg: "-99999999999000001"
    })
    // JSON.parse would have rounded it.
    expect(JSON.parse(`{"balance": 99999999999000001}`).balance).toBe(99999999999000000)
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

  it("still rejects text that is not JSON", () => {
    expect(() => parseLosslessJson("<html>")).toThrow()
  })
})
