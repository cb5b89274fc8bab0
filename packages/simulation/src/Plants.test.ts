import { describe, expect, it } from "@effect/vitest"
import { plantNames, plantSeeds } from "./Plants.js"
import { checkPlants, plantHalves } from "./testing/PlantChecks.js"

describe("plants", () => {
  it("names the four defects of issue 18, the nine of issue 30 and the one of issue 32, each checked once", () => {
    expect(plantNames).toHaveLength(14)
    expect(Object.keys(plantSeeds).sort()).toEqual([...plantNames].sort())
    expect([...plantHalves[0], ...plantHalves[1]].sort()).toEqual([...plantNames].sort())
  })

  // The first half here, the second in PlantsSecondHalf.test.ts: two files run side by side.
  checkPlants(plantHalves[0])
})
