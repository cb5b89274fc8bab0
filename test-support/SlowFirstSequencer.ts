import { relative } from "node:path"
import { BaseSequencer, type TestSpecification } from "vitest/node"

/**
 * The test files that take longest, slowest first (measured in a full run on two shared cores,
 * 2026-11-29: the plant halves about 260 s each, Paths 126 s, SweepCrash 104 s, Simulation 73 s,
 * the CLI's main 60 s, StakeCrash 53 s, ...). Each file runs on one worker, so one of them
 * started last keeps the run going alone on one core long after the rest; started first they run
 * beside the many short files. Without vitest's cache (a fresh clone in CI) the default order is
 * by file size, which put these small files last. Not listed: `apps/service/src/Shutdown.test.ts`
 * (38 s), whose 10 s shutdown grace failed once when it started among these at the run's busiest
 * moment.
 */
const slowestFirst = [
  "packages/simulation/src/Plants.test.ts",
  "packages/simulation/src/PlantsSecondHalf.test.ts",
  "packages/simulation/src/Paths.test.ts",
  "apps/worker/src/SweepCrash.test.ts",
  "packages/simulation/src/Simulation.test.ts",
  // Four PostgreSQL runs with connection cuts: 761 s on 2026-11-29 under a load of 11 to 13.
  "packages/simulation/src/faults/ConnectionCuts.test.ts",
  "apps/cli/src/main.test.ts",
  "apps/worker/src/StakeCrash.test.ts",
  "apps/api/src/main.test.ts",
  "apps/service/src/Console.browser.test.ts",
  "apps/worker/src/DeliveryProcess.test.ts",
  "apps/worker/src/main.test.ts"
]

const rank = (root: string, spec: TestSpecification) => {
  const index = slowestFirst.indexOf(relative(root, spec.moduleId).split("\\").join("/"))
  return index === -1 ? slowestFirst.length : index
}

/** vitest's order (cached durations, else file size), with the known slowest files moved to the front. */
export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    const sorted = await super.sort(files)
    const root = this.ctx.config.root
    // Array.prototype.sort is stable: the files outside the list keep vitest's order.
    return sorted.sort((a, b) => rank(root, a) - rank(root, b))
  }
}
