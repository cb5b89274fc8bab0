import { Effect } from "effect"
import { describe, expect, inject, it } from "vitest"
import { defaultRunOptions, runOne } from "./Simulation.js"

describe("a simulated run", () => {
  it("replays a seed on the memory store to the same trace, with no violation", async () => {
    const first = await Effect.runPromise(runOne(3))
    const second = await Effect.runPromise(runOne(3))
    expect(first.violations).toEqual([])
    expect(first.changes).toBeGreaterThan(0)
    expect(second.trace).toBe(first.trace)
  }, 120_000)

  it("runs a seed on the PostgreSQL adapters with no violation, the same trace each time", async () => {
    const options = { ...defaultRunOptions, storage: "postgres", databaseServer: inject("databaseAdminUrl") } as const
    const first = await Effect.runPromise(runOne(3, options))
    const second = await Effect.runPromise(runOne(3, options))
    expect(first.violations).toEqual([])
    expect(first.passes).toBeGreaterThan(0)
    expect(second.trace).toBe(first.trace)
  }, 240_000)
})
