import { describe, expect, it } from "@effect/vitest"
import { noFees, savingPercent } from "./FeeTotals.js"

describe("savingPercent", () => {
  // saving, burn-equivalent (SUN) -> percent to two decimals, truncated toward zero; worked by hand.
  const table: ReadonlyArray<readonly [bigint, bigint, string | null]> = [
    [1_300_000n, 19_457_000n, "6.68"], // 1,300,000 × 10,000 / 19,457,000 = 668.1
    [6_428_500n, 6_428_500n, "100.00"], // all own or delegated: nothing paid
    [0n, 6_428_500n, "0.00"], // all burned
    [-571_500n, 6_428_500n, "-8.89"], // dearer than burning: 571,500 × 10,000 / 6,428,500 = 889.0
    [7n, 1_000_000n, "0.00"], // 0.0007 %
    [0n, 0n, null] // nothing used
  ]
  for (const [saving, burnEquivalent, expected] of table) {
    it(`${saving} of ${burnEquivalent} is ${expected}`, () => {
      expect(savingPercent({ ...noFees, saving, burnEquivalent })).toBe(expected)
    })
  }
})
