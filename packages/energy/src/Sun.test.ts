import { describe, expect, it } from "@effect/vitest"
import { Option, Schema } from "effect"
import { parseRawJson } from "./RawJson.js"
import { DigitsBigInt, sunFromTrx, TrxAsSun } from "./Sun.js"

describe("money from provider text", () => {
  it("converts TRX decimals to SUN exactly, by string arithmetic", () => {
    expect(sunFromTrx("3.5")).toEqual(Option.some(3_500_000n))
    expect(sunFromTrx("8.43276")).toEqual(Option.some(8_432_760n))
    expect(sunFromTrx("24")).toEqual(Option.some(24_000_000n))
    expect(sunFromTrx("0.000001")).toEqual(Option.some(1n))
    expect(sunFromTrx("1.5000000")).toEqual(Option.some(1_500_000n))
    // 0.1 + 0.2 is not 0.3 in doubles; here it is whatever the text says.
    expect(sunFromTrx("0.3")).toEqual(Option.some(300_000n))
    expect(sunFromTrx("123456789012345678.123456")).toEqual(Option.some(123_456_789_012_345_678_123_456n))
    for (const bad of ["0.0000001", "-1", "1e3", ".5", "5.", "", "0x10", " 1"]) expect(sunFromTrx(bad)).toEqual(Option.none())
  })

  it("reads numbers from JSON as the text they were written as", () => {
    const reply = parseRawJson(`{"pay_amount": 8.43276, "sun": 9007199254740993, "neg": -2, "exp": 1e3, "s": "a \\"12\\" 3", "list": [1,2.50], "n": null}`)
    expect(reply).toEqual({ pay_amount: "8.43276", sun: "9007199254740993", neg: "-2", exp: "1e3", s: "a \"12\" 3", list: ["1", "2.50"], n: null })
    expect(Schema.decodeUnknownSync(TrxAsSun)((reply as any).pay_amount)).toBe(8_432_760n)
    expect(Schema.decodeUnknownSync(DigitsBigInt)((reply as any).sun)).toBe(9_007_199_254_740_993n)
    expect(() => Schema.decodeUnknownSync(DigitsBigInt)((reply as any).neg)).toThrow(/non-negative integer/)
  })
})
