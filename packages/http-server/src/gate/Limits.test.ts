import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { expectError, expectOk, header } from "../testing/Assertions.js"
import { send, signedHeaders } from "../testing/RawClient.js"
import { openRawSocket, slowRequestHead, unverifiedSignature } from "../testing/RawSocket.js"
import { provisionTenant, requestToken, tokenTarget } from "../testing/Tenants.js"
import { ServerUrl, TestServerLive } from "../testing/TestServer.js"

const maxBodyBytes = 1024

layer(TestServerLive({ maxBodyBytes }), { excludeTestServices: true })("body size limit", (it) => {
  it.effect("a body over the limit is 413 PAYLOAD_TOO_LARGE, before the body rules", () =>
    Effect.gen(function*() {
      const url = yield* ServerUrl
      const { app } = yield* provisionTenant()
      const post = (body: string) =>
        send(url, { method: "POST", target: tokenTarget, body, headers: signedHeaders(app, { method: "POST", target: tokenTarget, body }) })
      const over = yield* post("x".repeat(maxBodyBytes + 1))
      expectError(over, 413, "PAYLOAD_TOO_LARGE")
      expect(header(over, "pragma")).toBe("no-cache")
      expectError(yield* post(JSON.stringify({ pad: "y".repeat(4000) })), 413, "PAYLOAD_TOO_LARGE")
      // At the limit the body is read, and then refused by the token operation's own rule.
      expectError(yield* post("x".repeat(maxBodyBytes)), 400, "INVALID_ARGUMENT")
      // Unauthenticated GETs are measured too.
      expectError(yield* send(url, { method: "GET", target: "/healthz", body: "z".repeat(2000) }), 413, "PAYLOAD_TOO_LARGE")
    }))

  it.effect("a declared Content-Length over the limit is refused without waiting for the body", () =>
    Effect.scoped(Effect.gen(function*() {
      const url = yield* ServerUrl
      const { app } = yield* provisionTenant()
      const conn = yield* openRawSocket(url, slowRequestHead(url, { declared: maxBodyBytes + 1, headers: unverifiedSignature(app.appId) }))
      const res = yield* conn.response.pipe(Effect.timeoutFail({ duration: "2 seconds", onTimeout: () => new Error("no 413 before the body") }))
      expectError(res, 413, "PAYLOAD_TOO_LARGE")
      expect(header(res, "connection")).toBe("close")
    })))

  it.effect("a chunked body that grows past the limit is refused", () =>
    Effect.scoped(Effect.gen(function*() {
      const url = yield* ServerUrl
      const { app } = yield* provisionTenant()
      const signature = unverifiedSignature(app.appId).map(([k, v]) => `${k}: ${v}\r\n`).join("")
      const head = `POST ${tokenTarget} HTTP/1.1\r\nHost: ${new URL(url).host}\r\n${signature}Transfer-Encoding: chunked\r\n\r\n`
      const chunk = "a".repeat(600)
      const body = `${(600).toString(16)}\r\n${chunk}\r\n`.repeat(2) // 1200 bytes, final chunk never sent
      const conn = yield* openRawSocket(url, head + body)
      const res = yield* conn.response.pipe(Effect.timeoutFail({ duration: "2 seconds", onTimeout: () => new Error("no 413") }))
      expectError(res, 413, "PAYLOAD_TOO_LARGE")
    })))
})

layer(TestServerLive({ rateBurst: 3, ratePerSecond: 1 }), { excludeTestServices: true })("per-app rate limit", (it) => {
  it.effect("past the burst an app gets 429 RATE_LIMITED with Retry-After, and recovers after it", () =>
    Effect.gen(function*() {
      const url = yield* ServerUrl
      const { app } = yield* provisionTenant()
      for (let i = 0; i < 3; i++) expectOk(yield* requestToken(url, app))
      const limited = yield* requestToken(url, app)
      expectError(limited, 429, "RATE_LIMITED")
      const retryAfter = header(limited, "retry-after")
      expect(retryAfter).toMatch(/^[0-9]+$/)
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1)
      expect(Number(retryAfter)).toBeLessThanOrEqual(2)
      expectError(yield* requestToken(url, app), 429, "RATE_LIMITED")
      yield* Effect.sleep(`${Number(retryAfter)} seconds`)
      expectOk(yield* requestToken(url, app))
    }))

  it.effect("other apps, including the tenant's other network, are unaffected", () =>
    Effect.gen(function*() {
      const url = yield* ServerUrl
      const tenant = yield* provisionTenant(["nile", "main"])
      const other = yield* provisionTenant()
      for (let i = 0; i < 3; i++) expectOk(yield* requestToken(url, tenant.apps[0]!))
      expectError(yield* requestToken(url, tenant.apps[0]!), 429, "RATE_LIMITED")
      expectOk(yield* requestToken(url, tenant.apps[1]!))
      expectOk(yield* requestToken(url, other.app))
      expectError(yield* requestToken(url, tenant.apps[0]!), 429, "RATE_LIMITED")
    }))

  it.effect("requests that fail authentication, and unauthenticated routes, spend no budget", () =>
    Effect.gen(function*() {
      const url = yield* ServerUrl
      const { app } = yield* provisionTenant()
      for (let i = 0; i < 5; i++) expectError(yield* requestToken(url, { ...app, secret: "wrong" }), 401, "TOKEN_INVALID_OR_EXPIRED")
      for (let i = 0; i < 5; i++) expectOk(yield* send(url, { method: "GET", target: "/healthz", headers: [["x-app-id", app.appId]] }))
      for (let i = 0; i < 3; i++) expectOk(yield* requestToken(url, app))
    }))
})
