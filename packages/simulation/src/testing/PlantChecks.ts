import { Effect } from "effect"
import type { PlantName } from "../Plants.js"
import { defaultRunOptions, runOne } from "../Simulation.js"

/**
 * The plants in two halves of about equal running time (about 260 s each on two shared cores),
 * checked in two test files so that they run side by side; `Plants.test.ts` checks that the two
 * together name every plant once.
 */
export const plantHalves: readonly [ReadonlyArray<PlantName>, ReadonlyArray<PlantName>] = [
  ["early-receipt", "skip-revert", "double-book", "lose-event", "resign", "record-time"],
  ["reclaim-forgotten", "collection-cache", "receipt-contract", "network-rule", "foreign-url", "other-tokens", "rental-renumber", "unwrapped-create"]
]

/** The first seed of 1..20 whose run under `plant` reports a violation, with its violations. */
export const firstCaught = (plant: PlantName) =>
  Effect.gen(function*() {
    for (let seed = 1; seed <= 20; seed++) {
      const { violations } = yield* runOne(seed, { ...defaultRunOptions, plant })
      if (violations.length > 0) return { seed, violations }
    }
    return { seed: null, violations: [] }
  })

/** What each plant must be reported as: the property it breaks, in the words of its invariant. */
export const caughtAs: Record<PlantName, RegExp> = {
  "double-book": /is 2 deposits, not 1/,
  "lose-event": /at revision 1 has events of revisions \[\], not \[1\]/,
  resign: /signed 2 times/,
  "skip-revert": /is confirmed but its log is not on the canonical chain|is not its confirmed deposit/,
  "record-time": /block_time \(the chain's\) is \d+, not \d+/,
  "network-rule": /confirmation_type \w+, the tenant's rule is \w+/,
  "foreign-url": /not a URL of tenant-\d+ on (nile|main)/,
  "collection-cache": /sweeps to T\w+, its collection address is T\w+/,
  "early-receipt": /ended with its block \d+ above the solidified \d+/,
  "other-tokens": /is confirmed from a log of contract T\w+, not USDT/,
  "rental-renumber": /the provider took order sweep-\w+-\d+-\d+, which no sweep task stored/,
  "unwrapped-create": /(replay|concurrent) of wallets\.create sim-request-\d+ answered 409 .*BUSINESS_CONFLICT.*, not 200|conflict of wallets\.create sim-request-\d+ answered 200 .*, not 409 IDEMPOTENCY_CONFLICT/,
  "receipt-contract": /deposit \d+ \(\w+:0\) is confirmed from a log of contract T\w+, not USDT/,
  "reclaim-forgotten": /the resource account T\w+ still delegates \d+ SUN of energy stake to T\w+ after settling/
}
