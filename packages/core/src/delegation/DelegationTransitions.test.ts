import { describe, expect, it } from "@effect/vitest"
import { canMove } from "./DelegationTransitions.js"
import { delegationStates } from "./EnergyDelegation.js"

describe("delegation transitions", () => {
  it("allow exactly the moves of the hand-written table", () => {
    const allowed = new Set([
      "planned>planned", "planned>broadcast", "planned>confirmed", "planned>reclaimed",
      "broadcast>planned", "broadcast>confirmed", "broadcast>reclaimed",
      "confirmed>reclaim_broadcast",
      "reclaim_broadcast>reclaim_broadcast", "reclaim_broadcast>reclaimed"
    ])
    for (const from of delegationStates) {
      for (const to of delegationStates) expect(`${from}>${to}:${canMove(from, to)}`).toBe(`${from}>${to}:${allowed.has(`${from}>${to}`)}`)
    }
  })
})
