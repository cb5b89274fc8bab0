import { execFile } from "node:child_process"
import { join, resolve } from "node:path"
import { promisify } from "node:util"
import { describe, expect, inject, it } from "vitest"

// The PostgreSQL webhook store of examples/tenant-webhook-pg, run as its own `node --test` on the
// test run's PostgreSQL server (embedded, or DATABASE_URL's in CI's second pass). `npm run
// examples` runs it too, but there it skips unless a DATABASE_URL is set; this is where it must run.
const example = resolve(import.meta.dirname, "..", "examples", "tenant-webhook-pg")

describe("examples/tenant-webhook-pg", () => {
  it("passes its store tests on a real PostgreSQL, none skipped", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["--test", join(example, "PgWebhookStore.test.js")], {
      cwd: example,
      env: { ...process.env, DATABASE_URL: inject("databaseAdminUrl") }
    }).catch((error: { message: string; stdout?: string; stderr?: string }) => {
      // What node --test printed says which test failed and why; the bare error only names the command.
      throw new Error(`${error.message}\n${(error.stdout ?? "").slice(-3000)}\n${(error.stderr ?? "").slice(-2000)}`)
    })
    expect(stdout).toMatch(/^# fail 0$/m)
    expect(stdout).toMatch(/^# skipped 0$/m)
    expect(Number(/^# pass (\d+)$/m.exec(stdout)?.[1])).toBeGreaterThanOrEqual(5)
  }, 60_000)
})
