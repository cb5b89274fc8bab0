import { describe, expect, it } from "@effect/vitest"
import { ignoredTransfer } from "./DepositMinimum.js"

describe("which transfers are no deposit because of their value", () => {
  // [value, tenant's minimum, network's minimum, expected]
  const table: ReadonlyArray<readonly [bigint, bigint | null, bigint, string | undefined]> = [
    [0n, null, 0n, "zero"],
    [0n, 0n, 0n, "zero"],
    [1n, null, 0n, undefined],
    [1n, 0n, 0n, undefined],
    [9_999n, null, 10_000n, "below_minimum"],
    [10_000n, null, 10_000n, undefined],
    // The tenant's own minimum replaces the network's, lower or higher.
    [5n, 1n, 10_000n, undefined],
    [10_000n, 20_000n, 10_000n, "below_minimum"],
    [20_000n, 20_000n, 10_000n, undefined],
    [0n, 0n, 10_000n, "zero"]
  ]
  it.each(table)("%s base units, tenant %s, network %s → %s", (value, tenant, network, expected) => {
    expect(ignoredTransfer(value, tenant, network)).toBe(expected)
  })
})
