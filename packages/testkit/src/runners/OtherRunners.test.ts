import { spawnSync } from "node:child_process"
import { join, resolve } from "node:path"
import { describe, expect, it } from "vitest"

const root = resolve(import.meta.dirname, "../../../..")

// The kit outside vitest: node:test in its own process, the sources loaded through tsx. Jest runs
// the packed kit in examples/tenant-test-jest (`npm run examples`).
describe("the test kit under node:test", () => {
  it("runs a tenant's deposit test to the deposit.confirmed webhook", () => {
    const fixture = join(import.meta.dirname, "testing/nodeTestRun.ts")
    const run = spawnSync(process.execPath, ["--import", "tsx", "--conditions=@collector/source", "--test", "--test-reporter=tap", fixture], {
      cwd: root,
      encoding: "utf8",
      timeout: 120_000
    })
    const output = `${run.stdout}\n${run.stderr}`
    expect(output).not.toMatch(/Vitest failed to access its internal state/)
    expect(output).toMatch(/^# pass 1$/m)
    expect(run.status, output).toBe(0)
  }, 150_000)
})
