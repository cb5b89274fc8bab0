import { bytesToHex } from "@noble/hashes/utils.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { Effect } from "effect"
import { cutCoverage, type StepCoverage } from "./CutCoverage.js"
import type { CutPlan } from "./faults/ConnectionCuts.js"
import type { PlantName } from "./Plants.js"
import type { RunOptions } from "./RunOptions.js"
import type { StorageKind } from "./RunStorage.js"
import { type RunResult, runOne } from "./Simulation.js"

export interface Summary {
  readonly runs: number
  readonly first: number
  readonly last: number
  readonly violations: number
  /** One hash over the runs' traces, in seed order (whoever ran them, in whatever order). */
  readonly trace: string
  readonly failed: ReadonlyArray<RunResult>
  /** On PostgreSQL: the statement positions of each money step the runs' connection cuts hit. */
  readonly connectionCuts: ReadonlyArray<StepCoverage>
}

/** The runs' results summed up in seed order: the same seeds give the same summary however many processes ran them. */
export const summarize = (first: number, runs: number, results: Iterable<RunResult>): Summary => {
  const ordered = [...results].sort((a, b) => a.seed - b.seed)
  const hash = sha256.create()
  const encoder = new TextEncoder()
  for (const result of ordered) hash.update(encoder.encode(`${result.seed}:${result.trace}\n`))
  return {
    runs,
    first,
    last: first + runs - 1,
    violations: ordered.reduce((sum, result) => sum + result.violations.length, 0),
    trace: bytesToHex(hash.digest()),
    failed: ordered.filter((result) => result.violations.length > 0),
    connectionCuts: cutCoverage(ordered.map((result) => result.workload))
  }
}

/** The line every invocation ends with. */
export const summaryLine = (summary: Summary) =>
  `simulate: ${summary.runs} runs, seeds ${summary.first}..${summary.last}, ${summary.violations} violations, trace ${summary.trace}`

/** The command that runs `seed` alone, as it ran here. */
export const replayCommand = (seed: number, plant: PlantName | undefined, storage: StorageKind, cuts: CutPlan = "none") =>
  [
    `npm run simulate -- --seed ${seed} --runs 1`,
    ...(plant === undefined ? [] : [`--plant ${plant}`]),
    ...(storage === "memory" ? [] : [`--storage ${storage}`]),
    ...(cuts === "none" ? [] : [`--connection-cuts ${typeof cuts === "string" ? cuts : cuts.forced}`])
  ].join(" ")

/** Runs seeds `first` to `first + runs - 1` one after the other, reporting each as it ends. */
export const runMany = (first: number, runs: number, options: RunOptions, report: (result: RunResult) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    const results: Array<RunResult> = []
    for (let seed = first; seed < first + runs; seed++) {
      const result = yield* runOne(seed, options)
      results.push(result)
      yield* report(result)
    }
    return summarize(first, runs, results)
  })

/** A seed whose run did not come back (its process died, the run itself failed): one violation saying why. */
export const failedRun = (seed: number, why: string): RunResult => ({ seed, violations: [why], trace: "", passes: 0, changes: 0, workload: "" })
