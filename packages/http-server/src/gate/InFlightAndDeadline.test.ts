import { expect, layer } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { expectError, expectOk, header } from "../testing/Assertions.js"
import { send } from "../testing/RawClient.js"
import { openRawSocket, slowRequestHead } from "../testing/RawSocket.js"
import { pollUntil, provisionTenant, requestToken } from "../testing/Tenants.js"
import { CapturedLogs, ServerUrl, TestServerLive } from "../testing/TestServer.js"

const health = Effect.flatMap(ServerUrl, (url) => send(url, { method: "GET", target: "/healthz" }))

/** The `request` log line of one response. */
const logLineOf = (traceId: string | undefined) =>
  Effect.map(CapturedLogs, ({ lines }) =>
    lines.map((l) => JSON.parse(l)).filter((l) => l.message === "request" && l.annotations.trace_id === traceId))

layer(TestServerLive({ maxInFlight: 1 }), { excludeTestServices: true })("in-flight slots", (it) => {
  it.effect("with every slot taken a request is 503 SERVICE_UNAVAILABLE with Retry-After: 1", () =>
    Effect.gen(function*() {
      const url = yield* ServerUrl
      const { app } = yield* provisionTenant()
      expectOk(yield* health)
      yield* Effect.scoped(Effect.gen(function*() {
        // Holds the only slot: the declared body never arrives.
        yield* openRawSocket(url, slowRequestHead(url))
        const busy = yield* pollUntil(health, (r) => r.status === 503)
        expectError(busy, 503, "SERVICE_UNAVAILABLE")
        expect(header(busy, "retry-after")).toBe("1")
        const logged = yield* logLineOf(header(busy, "x-trace-id"))
        expect(logged.map((l) => l.annotations.status)).toEqual([503])
        // Before any other check, even for a valid token request.
        const token = yield* requestToken(url, app)
        expectError(token, 503, "SERVICE_UNAVAILABLE")
        expect(header(token, "retry-after")).toBe("1")
        expect(header(token, "pragma")).toBe("no-cache")
      }))
      // The client going away frees the slot well before the deadline.
      expectOk(yield* pollUntil(health, (r) => r.status === 200))
      expectOk(yield* requestToken(url, app))
    }))
})

layer(TestServerLive({ requestDeadline: Duration.millis(500) }), { excludeTestServices: true })("request deadline", (it) => {
  it.effect("a request still unfinished at the deadline is 504 REQUEST_TIMEOUT", () =>
    Effect.scoped(Effect.gen(function*() {
      const url = yield* ServerUrl
      const started = Date.now()
      const conn = yield* openRawSocket(url, slowRequestHead(url))
      const res = yield* conn.response.pipe(Effect.timeoutFail({ duration: "5 seconds", onTimeout: () => new Error("no 504") }))
      const elapsed = Date.now() - started
      expectError(res, 504, "REQUEST_TIMEOUT")
      expect(header(res, "pragma")).toBe("no-cache")
      expect(elapsed).toBeGreaterThanOrEqual(450)
      expect(elapsed).toBeLessThan(3000)
      const logged = yield* logLineOf(header(res, "x-trace-id"))
      expect(logged).toHaveLength(1)
      expect(logged[0].annotations).toMatchObject({ status: 504, route: "/open/v1/auth/token", method: "POST" })
      expect(logged[0].annotations.duration_ms).toBeGreaterThanOrEqual(450)
    })))

  it.effect("requests within the deadline are served, and a timed-out one frees its slot", () =>
    Effect.gen(function*() {
      const url = yield* ServerUrl
      const { app } = yield* provisionTenant()
      yield* Effect.scoped(Effect.flatMap(openRawSocket(url, slowRequestHead(url)), (conn) => conn.response))
      expectOk(yield* health)
      expectOk(yield* requestToken(url, app))
    }))
})
