import { describe, expect, it } from "vitest"
import { coverageLine, cutCoverage } from "./CutCoverage.js"

describe("cutCoverage", () => {
  it("counts each step's positions cut before and after over runs, up to the most statements a run sent or was cut at", () => {
    const runs = [
      "cut.sweep.finish.1.before=2 cut.sweep.finish.2.after=1 statements.sweep.finish.3=4 succeeded=2",
      "cut.sweep.finish.1.after=1 cut.sweep.finish.4.before=1 statements.sweep.claim.1=9 cut.sweep.claim.1.before=1 cut.sweep.claim.1.after=2"
    ]
    const coverage = new Map(cutCoverage(runs).map((c) => [c.step, c]))
    expect(coverage.get("sweep.finish")).toEqual({
      step: "sweep.finish",
      statements: 4,
      cuts: 5,
      missing: ["2.before", "3.before", "3.after", "4.after"]
    })
    expect(coverage.get("sweep.claim")).toEqual({ step: "sweep.claim", statements: 1, cuts: 3, missing: [] })
    expect(coverageLine(coverage.get("sweep.claim")!)).toBe("connection cuts sweep.claim: 1 statements, 3 cuts, every statement cut before and after")
    expect(coverageLine(coverage.get("scan.rewind")!)).toBe("connection cuts scan.rewind: 0 statements, 0 cuts, no statement seen")
  })
})
