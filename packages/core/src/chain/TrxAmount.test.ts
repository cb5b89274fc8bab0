import { describe, expect, it } from "@effect/vitest"
import { Option } from "effect"
import { sunFromTrx } from "./TrxAmount.js"

describe("TRX written as a decimal", () => {
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

})
