import { acquireEmbeddedDatabase } from "@collector/postgres"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import type { ChildProcess } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { exited } from "../../../test-support/ChildExit.js"
import { eventually } from "../../../test-support/Eventually.js"
import { freePort, startTs } from "../../../test-support/Processes.js"

// The password the embedded server this test starts later is given (its password file, written first).
const password = randomBytes(24).toString("base64url")

const workerEnv = (port: number, extra: Record<string, string> = {}) => ({
  DATABASE_URL: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
  MASTER_KEY: Buffer.alloc(32, 5).toString("base64"),
  WORKER_NETWORKS: "nile",
  // No node answers here: the worker only has to get as far as its database.
  TRON_NILE_NODE_URL: "http://127.0.0.1:1",
  LOG_LEVEL: "INFO",
  ...extra
})

const outputOf = (child: ChildProcess) => {
  let text = ""
  child.stdout!.on("data", (chunk) => (text += chunk))
  child.stderr!.on("data", (chunk) => (text += chunk))
  return () => text
}

const migrationsAt = (port: number) =>
  Effect.promise(async () => {
    const client = new pg.Client({ connectionString: `postgres://postgres:${password}@127.0.0.1:${port}/postgres` })
    try {
      await client.connect()
      return Number((await client.query("SELECT count(*) AS n FROM effect_sql_migrations")).rows[0].n)
    } catch {
      return 0
    } finally {
      await client.end().catch(() => undefined)
    }
  })

const waitingLines = (output: string) => output.split("\n").filter((line) => line.includes("waiting for the database"))

describe("a process started before its database", () => {
  it.scopedLive("waits, says so once, and starts (migrating) as soon as the server answers", () =>
    Effect.gen(function*() {
      const port = yield* Effect.promise(freePort)
      const child = startTs("apps/worker/src/main.ts", workerEnv(port), { output: "pipe" })
      yield* Effect.addFinalizer(() => Effect.sync(() => child.kill("SIGKILL")))
      const output = outputOf(child)
      yield* eventually(Effect.sync(() => waitingLines(output()).length), (n) => n > 0)
      // Several retries go by before the server comes.
      yield* Effect.sleep("2 seconds")
      const directory = mkdtempSync(join(tmpdir(), "collector-late-pg-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(directory, { recursive: true, force: true })))
      // A kept password file is what a new cluster is initialised with.
      writeFileSync(join(directory, "pg.password"), password, { mode: 0o600 })
      const url = yield* acquireEmbeddedDatabase({ directory: join(directory, "pg"), port, persistent: false })
      expect(Redacted.value(url)).toContain(`:${port}/`)
      yield* eventually(migrationsAt(port), (n) => n >= 11)
      expect(child.exitCode).toBeNull()
      expect(waitingLines(output())).toHaveLength(1)
      expect(waitingLines(output())[0]).toContain(`waiting for the database at 127.0.0.1:${port} (up to 60000 ms)`)
      expect(output()).toContain(`the database at 127.0.0.1:${port} answers`)
    }), { timeout: 180_000 })

  it.scopedLive("gives up after DATABASE_START_TIMEOUT_MS with one readable line and exit 1", () =>
    Effect.gen(function*() {
      const port = yield* Effect.promise(freePort)
      const started = Date.now()
      const child = startTs("apps/worker/src/main.ts", workerEnv(port, { DATABASE_START_TIMEOUT_MS: "3000" }), { output: "pipe" })
      yield* Effect.addFinalizer(() => Effect.sync(() => child.kill("SIGKILL")))
      const output = outputOf(child)
      expect(yield* exited(child)).toBe(1)
      expect(Date.now() - started).toBeGreaterThanOrEqual(3_000)
      const lines = output().trim().split("\n")
      expect(lines.at(-1)).toMatch(
        new RegExp(`^worker cannot start: the database at 127\\.0\\.0\\.1:${port} did not answer within 3000 ms \\(DATABASE_START_TIMEOUT_MS\\): connect ECONNREFUSED 127\\.0\\.0\\.1:${port}$`)
      )
      expect(waitingLines(output())).toHaveLength(1)
    }), { timeout: 120_000 })
})
