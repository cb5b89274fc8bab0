import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { parseTrx } from "./TrxAmount.js"

const parsed = (text: unknown) => Effect.runSync(Effect.either(parseTrx(text)))

describe("parseTrx", () => {
  it("reads decimal TRX as exact SUN", () => {
    expect(parsed("1")).toEqual(Either.right(1_000_000n))
    expect(parsed("12.5")).toEqual(Either.right(12_500_000n))
    expect(parsed("1.000001")).toEqual(Either.right(1_000_001n))
    // Past 2^53 SUN a double would round; the text goes straight to bigint.
    expect(parsed("9007199254.740993")).toEqual(Either.right(9_007_199_254_740_993n))
  })

  it("refuses more than 6 decimals, zero, negative, below 1 TRX and non-numbers", () => {
    for (const text of ["1.0000001", "0", "0.5", "0.999999", "-5", "1e3", "", "1.", ".5", "abc", undefined, true]) {
      expect(Either.isLeft(parsed(text)), String(text)).toBe(true)
    }
  })
})
