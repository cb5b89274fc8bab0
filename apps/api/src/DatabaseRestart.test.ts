import { expect, it } from "@effect/vitest"
import { canonicalString, sign } from "@collector/api"
import { Effect } from "effect"
import { rmSync } from "node:fs"
import { resolve } from "node:path"
import { freePort, repositoryRoot, runTs, startTs, waitForHttp } from "../../../test-support/Processes.js"
import { stopped } from "../../../test-support/ChildExit.js"
import { startDatabase } from "../../../test-support/RestartableDatabase.js"

const requestToken = (baseUrl: string, appId: string, secret: string) => {
  const path = "/open/v1/auth/token"
  const timestamp = String(Math.floor(Date.now() / 1000))
  const canonical = canonicalString({ method: "POST", path, appId, timestamp, accessToken: "", canonicalQuery: "", body: new Uint8Array() })
  return fetch(`${baseUrl}${path}`, { method: "POST", headers: { "x-app-id": appId, "x-timestamp": timestamp, "x-sign": sign(secret, canonical) } })
}

const readiness = async (operatorPort: number) => {
  const response = await fetch(`http://127.0.0.1:${operatorPort}/readyz`)
  return { status: response.status, body: await response.json() as { not_ready: ReadonlyArray<{ component: string; network?: string; reason: string }> } }
}

it.live("while PostgreSQL restarts under a running API, tenants get a 503 envelope with Retry-After and /readyz names the API waiting, then service again", () =>
  Effect.promise(async () => {
    const directory = resolve(repositoryRoot, ".data", `db-restart-${process.pid}`)
    rmSync(directory, { recursive: true, force: true })
    const pgPort = await freePort()
    // The test owns this server, so it can stop and start it under the API.
    let database = await startDatabase(directory, pgPort)
    const env = { DATABASE_URL: database.url, MASTER_KEY: Buffer.alloc(32, 7).toString("base64"), DATA_DIR: directory + "-data" }
    const port = await freePort()
    const operatorPort = await freePort()
    const api = startTs("apps/api/src/main.ts", { ...env, PORT: String(port), OPERATOR_PORT: String(operatorPort) })
    try {
      await waitForHttp(`http://127.0.0.1:${port}/healthz`)
      const created = await runTs("apps/cli/src/main.ts", env, ["tenant", "create", "--name", "acme", "--networks", "nile", "--json"])
      expect(created.code, created.stderr).toBe(0)
      const app = JSON.parse(created.stdout).apps[0]
      const base = `http://127.0.0.1:${port}`
      expect((await requestToken(base, app.app_id, app.app_secret)).status).toBe(200)
      const stoppedAt = new Date().toISOString()
      await database.stop()
      const during = await requestToken(base, app.app_id, app.app_secret)
      const body = await during.json()
      expect({ status: during.status, retryAfter: during.headers.get("retry-after"), code: body.error_code }).toEqual({
        status: 503,
        retryAfter: "5",
        code: "SERVICE_UNAVAILABLE"
      })
      expect(body.trace_id).toBeTypeOf("string")
      const waiting = await readiness(operatorPort)
      expect(waiting.status).toBe(503)
      const apiWait = waiting.body.not_ready.find((check) => check.component === "api")
      expect(apiWait, JSON.stringify(waiting.body)).toBeDefined()
      expect(apiWait!.network).toBeUndefined()
      const [, since] = /^waiting for the database since (\S+): \S/.exec(apiWait!.reason) ?? []
      expect(since, apiWait!.reason).toBeDefined()
      // Since the request that met the database stopped.
      expect(since! >= stoppedAt && since! <= new Date().toISOString(), `${since} after ${stoppedAt}`).toBe(true)
      database = await startDatabase(directory, pgPort)
      // The pool reconnects by itself.
      expect((await requestToken(base, app.app_id, app.app_secret)).status).toBe(200)
      const ready = await readiness(operatorPort)
      expect({ status: ready.status, notReady: ready.body.not_ready }).toEqual({ status: 200, notReady: [] })
    } finally {
      await stopped(api)
      await database.stop()
      rmSync(directory, { recursive: true, force: true })
      rmSync(`${directory}.password`, { force: true })
      rmSync(directory + "-data", { recursive: true, force: true })
    }
  }), { timeout: 180_000 })
