import { bytesToHex } from "@noble/hashes/utils.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { Effect } from "effect"
import { type RunOptions, type RunResult, runOne } from "./Simulation"

export interface Summary {
  readonly runs: number
  readonly first: number
  readonly last: number
  readonly violations: number
  /** One hash over the runs' traces, in seed order. */
  readonly trace: string
  readonly failed: ReadonlyArray<RunResult>
  readonly millis: number
}

/** Runs seeds `first` to `first + runs - 1` one after the other, reporting each as it ends. */
export const runMany = (first: number, runs: number, options: RunOptions, report: (result: RunResult) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    const started = Date.now()
    const hash = sha256.create()
    const failed: Array<RunResult> = []
    let violations = 0
    for (let seed = first; seed < first + runs; seed++) {
      const result = yield* runOne(seed, options)
      hash.update(new TextEncoder().encode(`${seed}:${result.trace}\n`))
      violations += result.violations.length
      if (result.violations.length > 0) failed.push(result)
      yield* report(result)
    }
    return { runs, first, last: first + runs - 1, violations, trace: bytesToHex(hash.digest()), failed, millis: Date.now() - started } satisfies Summary
  })
