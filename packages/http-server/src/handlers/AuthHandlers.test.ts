import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import { expectError, expectOk, header } from "../testing/Assertions.js"
import type { RawResponse } from "../testing/RawClient.js"
import { provisionTenant, requestToken } from "../testing/Tenants.js"
import { ServerUrl, TestServerLive } from "../testing/TestServer.js"

const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/

const expectTokenHeaders = (res: RawResponse) => {
  expect(header(res, "cache-control")).toBe("no-store")
  expect(header(res, "pragma")).toBe("no-cache")
}

layer(TestServerLive(), { excludeTestServices: true })("POST /open/v1/auth/token", (it) => {
  it.effect("issues an opaque Bearer token for 7200 s", () =>
    Effect.gen(function*() {
      const url = yield* ServerUrl
      const { app } = yield* provisionTenant()
      const before = Date.now()
      const res = yield* requestToken(url, app)
      const after = Date.now()
      const data = expectOk(res)
      expectTokenHeaders(res)
      expect(Object.keys(data).sort()).toEqual(["access_token", "expires_at", "expires_in", "token_type"])
      expect(data.token_type).toBe("Bearer")
      expect(data.expires_in).toBe(7200)
      expect(data.access_token).toMatch(/^[A-Za-z0-9_-]{43,}$/)
      expect(Buffer.from(data.access_token, "base64url").length).toBeGreaterThanOrEqual(32)
      expect(data.expires_at).toMatch(rfc3339)
      const expiresAt = Date.parse(data.expires_at)
      expect(expiresAt).toBeGreaterThanOrEqual(before + 7200_000 - 1000)
      expect(expiresAt).toBeLessThanOrEqual(after + 7200_000 + 1000)
    }))

  it.effect("issues a different token every time, all of them live", () =>
    Effect.gen(function*() {
      const url = yield* ServerUrl
      const sql = yield* SqlClient.SqlClient
      const { app } = yield* provisionTenant()
      const tokens: Array<string> = []
      for (let i = 0; i < 5; i++) tokens.push(expectOk(yield* requestToken(url, app)).access_token)
      expect(new Set(tokens).size).toBe(5)
      const rows = yield* sql<{ n: string }>`SELECT count(*)::text AS n FROM access_tokens WHERE app_id = ${app.appId} AND expires_at > now()`
      expect(rows[0]!.n).toBe("5")
    }))

  it.effect("stores only the SHA-256 hash of the token, bound to the calling app", () =>
    Effect.gen(function*() {
      const url = yield* ServerUrl
      const sql = yield* SqlClient.SqlClient
      const tenant = yield* provisionTenant(["nile", "main"])
      const main = tenant.apps[1]!
      const data = expectOk(yield* requestToken(url, main))
      const rows = yield* sql<{ token_hash: Uint8Array; app_id: string; expires_at: Date }>`
        SELECT token_hash, app_id::text AS app_id, expires_at FROM access_tokens WHERE app_id = ${main.appId}`
      expect(rows).toHaveLength(1)
      const row = rows[0]!
      expect(Buffer.from(row.token_hash).toString("hex")).toBe(createHash("sha256").update(data.access_token, "utf8").digest("hex"))
      expect(row.app_id).toBe(main.appId)
      expect(Math.abs(row.expires_at.getTime() - Date.parse(data.expires_at))).toBeLessThan(1000)
      const dump = yield* sql<{ t: string }>`SELECT string_agg(a::text, ' ') AS t FROM access_tokens a`
      expect(dump[0]!.t).not.toContain(data.access_token)
      expect(dump[0]!.t).not.toContain(Buffer.from(data.access_token).toString("hex"))
    }))

  it.effect("error responses of the token operation carry the same caching headers", () =>
    Effect.gen(function*() {
      const url = yield* ServerUrl
      const { app } = yield* provisionTenant()
      const unauthorized = yield* requestToken(url, { ...app, secret: "wrong" })
      expectError(unauthorized, 401, "TOKEN_INVALID_OR_EXPIRED")
      expectTokenHeaders(unauthorized)
      const invalid = yield* requestToken(url, app, { extraHeaders: [["idempotency-key", "k"]] })
      expectError(invalid, 400, "INVALID_ARGUMENT")
      expectTokenHeaders(invalid)
    }))

  it.effect("every response has its own trace id", () =>
    Effect.gen(function*() {
      const url = yield* ServerUrl
      const { app } = yield* provisionTenant()
      const ids = new Set<string | undefined>()
      for (let i = 0; i < 3; i++) ids.add(header(yield* requestToken(url, app), "x-trace-id"))
      for (let i = 0; i < 3; i++) ids.add(header(yield* requestToken(url, { ...app, secret: "x" }), "x-trace-id"))
      expect(ids.size).toBe(6)
    }))
})
