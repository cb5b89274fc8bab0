import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { plantSeeds } from "./Plants.js"
import { repeatedOnServer } from "./testing/MemoryOnly.js"
import { caughtAs, firstCaught, plantHalves } from "./testing/PlantChecks.js"

describe("plants, second half", () => {
  // Every planted defect must be reported within 20 seeds, first on the seed CI runs it on, or the
  // invariants have no teeth.
  for (const plant of plantHalves[1]) {
    it.effect.skipIf(repeatedOnServer)(`${plant}: caught first on seed ${plantSeeds[plant]}`, () =>
      Effect.map(firstCaught(plant), (caught) => {
        expect(caught.seed).toBe(plantSeeds[plant])
        expect(caught.violations.join("\n")).toMatch(caughtAs[plant])
      }), 240_000)
  }
})
