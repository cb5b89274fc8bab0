import { describe, expect, it } from "@effect/vitest"
import { canonicalString, sign } from "@collector/api"
import { Effect } from "effect"
import { rmSync, statSync } from "node:fs"
import { createServer } from "node:net"
import { resolve } from "node:path"
import { answers, freePort, repositoryRoot, runTs, startTs, waitForHttp } from "../../../test-support/Processes.js"
import { stopped } from "../../../test-support/ChildExit.js"

const requestToken = async (baseUrl: string, appId: string, secret: string) => {
  const path = "/open/v1/auth/token"
  const timestamp = String(Math.floor(Date.now() / 1000))
  const canonical = canonicalString({ method: "POST", path, appId, timestamp, accessToken: "", canonicalQuery: "", body: new Uint8Array() })
  return fetch(`${baseUrl}${path}`, { method: "POST", headers: { "x-app-id": appId, "x-timestamp": timestamp, "x-sign": sign(secret, canonical) } })
}

describe("service start", () => {
  it.live("on embedded defaults: starts its own PostgreSQL, shares it with the CLI, and keeps data across restarts", () =>
    Effect.promise(async () => {
      const dataDir = resolve(repositoryRoot, ".data", `start-test-${process.pid}`)
      rmSync(dataDir, { recursive: true, force: true })
      const pgPort = await freePort()
      const env = { DATABASE_URL: undefined, MASTER_KEY: undefined, DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort) }
      const start = async (extra: Record<string, string> = {}) => {
        const port = await freePort()
        const child = startTs("apps/api/src/main.ts", { ...env, ...extra, PORT: String(port) }, { output: "pipe" })
        let output = ""
        child.stdout?.on("data", (chunk) => (output += chunk))
        child.stderr?.on("data", () => undefined)
        await waitForHttp(`http://127.0.0.1:${port}/healthz`)
        return { child, url: `http://127.0.0.1:${port}`, output: () => output }
      }
      try {
        const first = await start()
        expect(statSync(resolve(dataDir, "master.key")).mode & 0o777).toBe(0o600)
        // The operator CLI runs while the service does, on the same embedded database.
        const created = await runTs("apps/cli/src/main.ts", env, ["tenant", "create", "--name", "acme", "--networks", "nile", "--json"])
        expect(created.code, created.stderr).toBe(0)
        // The service warned about its key file; a CLI call beside it does not repeat that.
        expect(created.stderr).not.toContain("master key")
        const app = JSON.parse(created.stdout).apps[0]
        expect((await requestToken(first.url, app.app_id, app.app_secret)).status).toBe(200)
        expect(await answers(pgPort)).toBe(true)
        await stopped(first.child)
        // The service started the database, so it stops it too.
        expect(await answers(pgPort)).toBe(false)
        // A setting with a slip in its name is pointed out once it has started, not silently ignored.
        const second = await start({ OPERATR_PORT: "0" })
        expect((await requestToken(second.url, app.app_id, app.app_secret)).status).toBe(200)
        await stopped(second.child)
        expect(second.output()).toContain("OPERATR_PORT is set, but the api has no setting of that name and ignores it: did you mean OPERATOR_PORT?")
        expect(first.output()).not.toContain("did you mean")
      } finally {
        rmSync(dataDir, { recursive: true, force: true })
      }
    }), { timeout: 120_000 })

  it.live("refuses to start with a readable reason", () =>
    Effect.promise(async () => {
      // A database that does not exist: a process that connected before checking its settings would
      // fail on that instead, so each message below also shows nothing was connected to.
      const url = "postgres://postgres@127.0.0.1:5432/no_such_database_for_start_checks"
      const key = Buffer.alloc(32, 1).toString("base64")
      const cases: ReadonlyArray<readonly [Record<string, string | undefined>, RegExp]> = [
        [{ DATABASE_URL: "not-a-url", MASTER_KEY: key }, /^api cannot start: DATABASE_URL must be a PostgreSQL URL: postgres:\/\/user:password@host:5432\/database$/],
        [{ DATABASE_URL: url, MASTER_KEY: key, LOG_FORMAT: "xml" }, /^api cannot start: LOG_FORMAT must be json or pretty$/],
        [{ DATABASE_URL: url, MASTER_KEY: key, SHUTDOWN_GRACE_MS: "soon" }, /^api cannot start: SHUTDOWN_GRACE_MS/],
        [{ DATABASE_URL: url, MASTER_KEY: undefined }, /^api cannot start: MASTER_KEY is required when DATABASE_URL is set/],
        [{ DATABASE_URL: url, MASTER_KEY: "c2hvcnQ=" }, /^api cannot start: MASTER_KEY .*32 bytes/],
        [{ DATABASE_URL: url, MASTER_KEY: key, PORT: "http" }, /^api cannot start: PORT must be a whole number from 1 to 65535$/],
        [{ DATABASE_URL: url, MASTER_KEY: key, API_RATE_BURST: "0" }, /^api cannot start: API_RATE_BURST must be a whole number of at least 1$/]
      ]
      for (const [env, message] of cases) {
        const run = await runTs("apps/api/src/main.ts", { PORT: String(await freePort()), ...env })
        expect(run.code).toBe(1)
        expect(run.stderr.trim()).toMatch(message)
        expect(run.stderr).not.toContain("c2hvcnQ=")
        expect(run.stderr.trim().split("\n")).toHaveLength(1)
      }
    }), { timeout: 120_000 })

  it.live("a port another process holds is one readable line", () =>
    Effect.promise(async () => {
      const holder = createServer()
      const port = await freePort()
      await new Promise<void>((done) => holder.listen(port, "0.0.0.0", done))
      const dataDir = resolve(repositoryRoot, ".data", `port-test-${process.pid}`)
      try {
        const run = await runTs("apps/api/src/main.ts", {
          DATABASE_URL: undefined,
          MASTER_KEY: undefined,
          DATA_DIR: dataDir,
          EMBEDDED_PG_PORT: String(await freePort()),
          PORT: String(port)
        })
        expect(run.code).toBe(1)
        expect(run.stderr.trim()).toBe(`api cannot start: cannot listen on 0.0.0.0:${port}: the port is in use by another process (set PORT to another port)`)
      } finally {
        holder.close()
        rmSync(dataDir, { recursive: true, force: true })
      }
    }), { timeout: 120_000 })
})
