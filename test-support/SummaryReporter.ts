import type { Reporter, TestModule } from "vitest/node"

/** Prints the plain `N passed, N failed, N skipped` closing line that CI reads. */
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
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`)
  }
}
