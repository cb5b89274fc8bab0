import { Kernel } from "@collector/core"
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { DigitsBigInt, TrxAsSun } from "./Sun.js"

describe("money from provider text", () => {
  it("reads numbers from JSON as the text they were written as", () => {
    const reply = Kernel.LosslessJson.parse(`{"pay_amount": 8.43276, "sun": 9007199254740993, "neg": -2, "exp": 1e3, "s": "a \\"12\\" 3", "list": [1,2.50], "n": null}`, "allAsText")
    expect(reply).toEqual({ pay_amount: "8.43276", sun: "9007199254740993", neg: "-2", exp: "1e3", s: "a \"12\" 3", list: ["1", "2.50"], n: null })
    expect(Schema.decodeUnknownSync(TrxAsSun)((reply as any).pay_amount)).toBe(8_432_760n)
    expect(Schema.decodeUnknownSync(DigitsBigInt)((reply as any).sun)).toBe(9_007_199_254_740_993n)
    expect(() => Schema.decodeUnknownSync(DigitsBigInt)((reply as any).neg)).toThrow(/non-negative integer/)
  })
})
