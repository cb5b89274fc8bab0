import { describe } from "@effect/vitest"
import { checkPlants, plantHalves } from "./testing/PlantChecks.js"

describe("plants, second half", () => {
  checkPlants(plantHalves[1])
})
