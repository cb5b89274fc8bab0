import type { Reporter, TestModule } from "vitest/node"
import { relative } from "node:path"

/** How many of the slowest files the run lists: where CI's time goes, for trimming it. */
const slowestShown = 15

/**
 * Prints the slowest test files with their durations, then the plain `N passed, N failed, N skipped`
 * closing line that CI reads.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    let passed = 0
    let failed = 0
    let skipped = 0
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state
        if (state === "passed") passed++
        else if (state === "failed") failed++
        else skipped++
      }
      if (module.state() === "failed" && module.children.size === 0) failed++
    }
    const slowest = modules
      .map((module) => ({ file: relative(process.cwd(), module.moduleId), seconds: module.diagnostic().duration / 1000 }))
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, slowestShown)
    if (slowest.length > 1) {
      process.stdout.write(`\nslowest test files:\n${slowest.map(({ file, seconds }) => `  ${seconds.toFixed(1).padStart(7)} s  ${file}`).join("\n")}\n`)
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`)
  }
}
