import { describe, expect, it } from "@effect/vitest"
import { canonicalString, sign } from "@collector/api"
import { freshDatabaseUrl } from "@collector/postgres/testing"
import { Effect, Redacted } from "effect"
import type { ChildProcess } from "node:child_process"
import { createHash, randomBytes } from "node:crypto"
import { freePort, runTs, startTs, waitForHttp } from "../../../test-support/Processes.js"
import { stopped } from "../../../test-support/ChildExit.js"

/** A master key as an operator makes one, and its id as the docs define it (first 16 hex of SHA-256). */
const newKey = () => {
  const bytes = randomBytes(32)
  return { base64: bytes.toString("base64"), id: createHash("sha256").update(bytes).digest("hex").slice(0, 16) }
}

const requestToken = (baseUrl: string, appId: string, secret: string) => {
  const path = "/open/v1/auth/token"
  const timestamp = String(Math.floor(Date.now() / 1000))
  const canonical = canonicalString({ method: "POST", path, appId, timestamp, accessToken: "", canonicalQuery: "", body: new Uint8Array() })
  return fetch(`${baseUrl}${path}`, { method: "POST", headers: { "x-app-id": appId, "x-timestamp": timestamp, "x-sign": sign(secret, canonical) } })
}

const outputOf = (child: ChildProcess) => {
  let text = ""
  child.stdout!.on("data", (chunk) => (text += chunk))
  child.stderr!.on("data", (chunk) => (text += chunk))
  return () => text
}

const cli = (env: Record<string, string | undefined>, ...args: Array<string>) => Effect.promise(() => runTs("apps/cli/src/main.ts", env, args))

describe("master key rotation", () => {
  it.scopedLive("an API started with a MASTER_KEY that sealed nothing here stops with one line naming both variables", () =>
    Effect.gen(function*() {
      const { url } = yield* freshDatabaseUrl
      const a = newKey()
      const wrong = newKey()
      const base = { DATABASE_URL: Redacted.value(url), MASTER_KEY_PREVIOUS: undefined }
      const created = yield* cli({ ...base, MASTER_KEY: a.base64 }, "tenant", "create", "--name", "acme", "--networks", "nile", "--json")
      expect(created.code, created.stderr).toBe(0)
      const run = yield* Effect.promise(async () =>
        runTs("apps/api/src/main.ts", { ...base, MASTER_KEY: wrong.base64, PORT: String(await freePort()), OPERATOR_PORT: "0" }))
      expect(run.code).toBe(1)
      expect(run.stderr.trim()).toBe(
        `api cannot start: the master key opens none of the stored sealed values (sealed under key id "${a.id}"): ` +
          `the current key (id "${wrong.id}") comes from MASTER_KEY, and MASTER_KEY_PREVIOUS is not set; ` +
          "set MASTER_KEY to the key that sealed them, or list that key in MASTER_KEY_PREVIOUS"
      )
      expect(run.stderr).not.toContain(wrong.base64)
      // The CLI refuses too: it would seal new secrets under a key the service cannot open.
      const refused = yield* cli({ ...base, MASTER_KEY: wrong.base64 }, "tenant", "create", "--name", "beta", "--networks", "nile")
      expect(refused.code).toBe(1)
      expect(refused.stderr).toContain("the master key opens none of the stored sealed values")
    }), { timeout: 120_000 })

  it.scopedLive("keys reseal moves every value to the new key online, after which the old key can go and every secret still works", () =>
    Effect.gen(function*() {
      const { url } = yield* freshDatabaseUrl
      const a = newKey()
      const b = newKey()
      const base = { DATABASE_URL: Redacted.value(url) }
      const underA = { ...base, MASTER_KEY: a.base64, MASTER_KEY_PREVIOUS: undefined }
      const rotated = { ...base, MASTER_KEY: b.base64, MASTER_KEY_PREVIOUS: a.base64 }
      const underB = { ...base, MASTER_KEY: b.base64, MASTER_KEY_PREVIOUS: undefined }
      const created = yield* cli(underA, "tenant", "create", "--name", "acme", "--networks", "nile,main", "--json")
      expect(created.code, created.stderr).toBe(0)
      const apps = JSON.parse(created.stdout).apps as ReadonlyArray<{ app_id: string; app_secret: string }>

      // Rotated: the API runs on B with A still listed, while the re-seal runs beside it.
      const port = yield* Effect.promise(freePort)
      const api = startTs("apps/api/src/main.ts", { ...rotated, PORT: String(port), OPERATOR_PORT: "0", LOG_FORMAT: "json" }, { output: "pipe" })
      const startOutput = outputOf(api)
      yield* Effect.addFinalizer(() => Effect.promise(() => stopped(api)))
      yield* Effect.promise(() => waitForHttp(`http://127.0.0.1:${port}/healthz`))
      expect(startOutput()).toContain("5 sealed values are still under an older master key: run `npm run cli -- keys reseal`, then MASTER_KEY_PREVIOUS can be removed")
      // The key check, two app secrets and two webhook keys, all under A.
      const before = JSON.parse((yield* cli(rotated, "keys", "status", "--json")).stdout)
      expect(before).toMatchObject({ current_key_id: b.id, previous_key_ids: [a.id], by_key_id: [{ key_id: a.id, count: 5, current: false }], under_other_keys: 5 })

      const resealed = yield* cli(rotated, "keys", "reseal", "--batch-size", "2", "--json")
      expect(resealed.code, resealed.stderr).toBe(0)
      // One progress line per batch of at most 2: 2, 4, 5.
      expect(resealed.stderr.trim().split("\n").map((line) => line.match(/^resealed (\d+),/)?.[1])).toEqual(["2", "4", "5"])
      const report = JSON.parse(resealed.stdout)
      expect(report).toMatchObject({ key_id: b.id, resealed: 5, already_current: 0, unreadable: 0, resumed: false })
      expect(report.status).toMatchObject({ by_key_id: [{ key_id: b.id, count: 5, current: true }], under_other_keys: 0, previous_keys_needed: false })
      for (const app of apps) expect((yield* Effect.promise(() => requestToken(`http://127.0.0.1:${port}`, app.app_id, app.app_secret))).status).toBe(200)
      yield* Effect.promise(() => stopped(api))
      // Started again with A still listed, the service says A can go.
      const port1 = yield* Effect.promise(freePort)
      const api1 = startTs("apps/api/src/main.ts", { ...rotated, PORT: String(port1), OPERATOR_PORT: "0", LOG_FORMAT: "json" }, { output: "pipe" })
      const restartOutput = outputOf(api1)
      yield* Effect.addFinalizer(() => Effect.promise(() => stopped(api1)))
      yield* Effect.promise(() => waitForHttp(`http://127.0.0.1:${port1}/healthz`))
      expect(restartOutput()).toContain("no value is sealed under an older master key any more: MASTER_KEY_PREVIOUS can be removed")
      yield* Effect.promise(() => stopped(api1))

      // A is removed: the service starts, says nothing is left under an old key, and every secret opens.
      const again = yield* cli(underB, "keys", "status")
      expect(again.stdout).toContain("Every value is sealed under the current key.")
      const port2 = yield* Effect.promise(freePort)
      const api2 = startTs("apps/api/src/main.ts", { ...underB, PORT: String(port2), OPERATOR_PORT: "0" })
      yield* Effect.addFinalizer(() => Effect.promise(() => stopped(api2)))
      yield* Effect.promise(() => waitForHttp(`http://127.0.0.1:${port2}/healthz`))
      for (const app of apps) expect((yield* Effect.promise(() => requestToken(`http://127.0.0.1:${port2}`, app.app_id, app.app_secret))).status).toBe(200)
      // And A alone no longer opens the store.
      const old = yield* cli(underA, "tenant", "list")
      expect(old.code).toBe(1)
      expect(old.stderr).toContain(`sealed under key id "${b.id}"`)
    }), { timeout: 180_000 })
})
