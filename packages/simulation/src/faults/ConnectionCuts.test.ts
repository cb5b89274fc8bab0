import { Effect } from "effect"
import { describe, expect, inject, it } from "vitest"
import { cutCoverage } from "../CutCoverage.js"
import { Dice } from "../Dice.js"
import type { RunOptions } from "../RunOptions.js"
import { defaultRunOptions, type RunResult, runOne } from "../Simulation.js"
import { Trace } from "../Trace.js"
import { PathCounts } from "../workload/PathCounts.js"
import { ConnectionCuts } from "./ConnectionCuts.js"

/** Runs `kind` once with `statements` statements; where each was cut ("-" for none). */
const runStep = (cuts: ConnectionCuts, statements: number) =>
  Effect.runSync(cuts.within("sweep.finish", Effect.sync(() => {
    const step = cuts.current()!
    return Array.from({ length: statements }, () => cuts.at(step) ?? "-").join(" ")
  })))

describe("ConnectionCuts", () => {
  it("forced on a step: each run of it is cut once, at a statement up to one past the most it has seen", () => {
    const paths = new PathCounts()
    const cuts = new ConnectionCuts(new Dice("cuts"), new Trace(), paths, { forced: "sweep.finish" })
    const runs = Array.from({ length: 60 }, () => runStep(cuts, 4))
    for (const run of runs) expect(run.split(" ").filter((at) => at !== "-").length).toBeLessThanOrEqual(1)
    expect(new Set(runs)).toEqual(new Set(["before - - -", "after - - -", "- before - -", "- after - -", "- - before -", "- - after -", "- - - before", "- - - after", "- - - -"]))
    expect(paths.entries.filter(([path]) => path.startsWith("cut.")).length).toBe(8)
    expect(Effect.runSync(Effect.sync(() => cuts.current()))).toBeUndefined()
  })

  it("drawn: another step than the forced one is never cut, and the same dice cut the same statements", () => {
    const cutsOf = (plan: ConstructorParameters<typeof ConnectionCuts>[3]) => {
      const cuts = new ConnectionCuts(new Dice("same"), new Trace(), new PathCounts(), plan)
      return Array.from({ length: 200 }, () => runStep(cuts, 3)).join("|")
    }
    expect(cutsOf({ forced: "sweep.claim" })).not.toMatch(/before|after/)
    expect(cutsOf("drawn")).toMatch(/before|after/)
    expect(cutsOf("drawn")).toBe(cutsOf("drawn"))
  })
})

const seeds = [1, 2, 3]

// Four PostgreSQL runs with a cut in every sweep finish take minutes (761 s at a load of 11 to 13),
// more than the suite's budget in CI: `npm run test:connection-cuts` runs them.
describe.runIf(process.env.SIM_CONNECTION_CUTS === "full")("connection cuts on PostgreSQL", () => {
  it("cut at every statement of the sweeper's finish, before it is sent and after it ran: no violation, and a seed replays", async () => {
    const options: RunOptions = {
      ...defaultRunOptions,
      storage: "postgres",
      databaseServer: inject("databaseAdminUrl"),
      connectionCuts: { forced: "sweep.finish" }
    }
    const results: Array<RunResult> = []
    for (const seed of seeds) results.push(await Effect.runPromise(runOne(seed, options)))
    expect(results.flatMap((r) => r.violations.map((v) => `seed ${r.seed}: ${v}`))).toEqual([])
    const finish = cutCoverage(results.map((r) => r.workload)).find((c) => c.step === "sweep.finish")!
    // One statement: the task's compare-and-set, its wallet's books and its event (PgSweepRepository.finish).
    expect(finish.statements).toBeGreaterThanOrEqual(1)
    expect(finish.missing).toEqual([])
    const again = await Effect.runPromise(runOne(seeds[0]!, options))
    expect(again.trace).toBe(results[0]!.trace)
  }, 900_000)
})
