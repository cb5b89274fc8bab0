import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { plantNames, plantSeeds } from "./Plants.js"
import { repeatedOnServer } from "./testing/MemoryOnly.js"
import { caughtAs, firstCaught, plantHalves } from "./testing/PlantChecks.js"

describe("plants", () => {
  it("names the four defects of issue 18, the nine of issue 30 and the one of issue 32, each checked once", () => {
    expect(plantNames).toHaveLength(14)
    expect(Object.keys(plantSeeds).sort()).toEqual([...plantNames].sort())
    expect([...plantHalves[0], ...plantHalves[1]].sort()).toEqual([...plantNames].sort())
  })

  // The first half here, the second in PlantsSecondHalf.test.ts: two files run side by side.

  // Every planted defect must be reported within 20 seeds, first on the seed CI runs it on, or the
  // invariants have no teeth.
  for (const plant of plantHalves[0]) {
    it.effect.skipIf(repeatedOnServer)(`${plant}: caught first on seed ${plantSeeds[plant]}`, () =>
      Effect.map(firstCaught(plant), (caught) => {
        expect(caught.seed).toBe(plantSeeds[plant])
        expect(caught.violations.join("\n")).toMatch(caughtAs[plant])
      }), 240_000)
  }
})
