import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { type PlantName, plantNames } from "./Plants.js"
import { defaultRunOptions, runOne } from "./Simulation.js"

/** The first seed of 1..20 whose run under `plant` reports a violation, with its violations. */
const firstCaught = (plant: PlantName) =>
  Effect.gen(function*() {
    for (let seed = 1; seed <= 20; seed++) {
      const { violations } = yield* runOne(seed, { ...defaultRunOptions, plant })
      if (violations.length > 0) return { seed, violations }
    }
    return { seed: null, violations: [] }
  })

// Every planted defect must be reported within 20 seeds, or the invariants have no teeth.
describe("plants", () => {
  it("names the four defects of issue 18", () => {
    expect([...plantNames].sort()).toEqual(["double-book", "lose-event", "resign", "skip-revert"])
  })

  it.effect("double-book: a deposit stored twice is a log of 2 deposits", () =>
    Effect.gen(function*() {
      const caught = yield* firstCaught("double-book")
      expect(caught.seed).not.toBeNull()
      expect(caught.violations.join("\n")).toMatch(/is 2 deposits, not 1/)
    }), 120_000)

  it.effect("lose-event: a revision without its event", () =>
    Effect.gen(function*() {
      const caught = yield* firstCaught("lose-event")
      expect(caught.seed).not.toBeNull()
      expect(caught.violations.join("\n")).toMatch(/at revision 1 has events of revisions \[\], not \[1\]/)
    }), 120_000)

  it.effect("resign: a task signed again is a task signed twice", () =>
    Effect.gen(function*() {
      const caught = yield* firstCaught("resign")
      expect(caught.seed).not.toBeNull()
      expect(caught.violations.join("\n")).toMatch(/signed 2 times/)
    }), 240_000)

  it.effect("skip-revert: a reorganised log left confirmed", () =>
    Effect.gen(function*() {
      const caught = yield* firstCaught("skip-revert")
      expect(caught.seed).not.toBeNull()
      expect(caught.violations.join("\n")).toMatch(/is confirmed but its log is not on the canonical chain|is not its confirmed deposit/)
    }), 240_000)
})
