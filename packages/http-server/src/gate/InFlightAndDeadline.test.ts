import { Sweeps } from "@collector/core"
import { adapterFor } from "@collector/tron-sim/testing"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Fiber, Layer } from "effect"
import { createServer, type Socket } from "node:net"
import { expectError, expectOk, header } from "../testing/Assertions.js"
import { send } from "../testing/RawClient.js"
import { openRawSocket, slowRequestHead, unverifiedSignature } from "../testing/RawSocket.js"
import { sweepsOf } from "../testing/Sweeps.js"
import { provisionTenant, requestToken } from "../testing/Tenants.js"
import { CapturedLogs, ServerUrl, TestServerLive } from "../testing/TestServer.js"
import { tenantClients } from "../testing/Wallets.js"

const health = Effect.flatMap(ServerUrl, (url) => send(url, { method: "GET", target: "/healthz" }))

/** The `request` log line of one response. */
const logLineOf = (traceId: string | undefined) =>
  Effect.map(CapturedLogs, ({ lines }) =>
    lines.map((l) => JSON.parse(l)).filter((l) => l.message === "request" && l.annotations.trace_id === traceId))

/**
 * A TRON node that accepts connections and never answers: an estimate against it stays in its
 * handler, holding a tenant's in-flight slot until the request deadline.
 */
const SilentNode = Layer.scoped(
  Sweeps.NetworkResources,
  Effect.gen(function*() {
    const sockets = new Set<Socket>()
    const server = createServer((socket) => {
      sockets.add(socket)
      socket.on("error", () => {})
    })
    yield* Effect.acquireRelease(
      Effect.async<void>((resume) => void server.listen(0, "127.0.0.1", () => resume(Effect.void))),
      () => Effect.sync(() => {
        for (const socket of sockets) socket.destroy()
        server.close()
      })
    )
    const chain = yield* adapterFor(`http://127.0.0.1:${(server.address() as { port: number }).port}`, { requestTimeout: Duration.seconds(60) })
    return { ...Sweeps.unconfiguredNetworkResources, chain: () => Effect.succeed(chain) }
  })
)

layer(TestServerLive({ maxInFlight: 1, requestDeadline: Duration.seconds(2) }, { networkResources: SilentNode }), { excludeTestServices: true })(
  "in-flight slots",
  (it) => {
    it.effect("with every slot taken by tenants' work an authenticated request is 503 SERVICE_UNAVAILABLE with Retry-After: 1", () =>
      Effect.gen(function*() {
        const url = yield* ServerUrl
        const { client } = yield* tenantClients()
        const [w] = yield* client.createWallets(1)
        // Holds the only slot: the node never answers the estimate.
        const holder = yield* Effect.fork(sweepsOf(client).estimate({ wallet_ids: [w!.id], sweep_mode: "all" }))
        // Time for the estimate to pass the gate and take the slot (a poll now could take it first).
        yield* Effect.sleep("300 millis")
        const busy = yield* client.get("/open/v1/wallets")
        expectError(busy, 503, "SERVICE_UNAVAILABLE")
        expect(header(busy, "retry-after")).toBe("1")
        const logged = yield* logLineOf(header(busy, "x-trace-id"))
        expect(logged.map((l) => l.annotations.status)).toEqual([503])
        // A valid token request needs a slot for its work too, once authenticated.
        const token = yield* requestToken(url, client.app)
        expectError(token, 503, "SERVICE_UNAVAILABLE")
        expect(header(token, "pragma")).toBe("no-cache")
        // The health check is no tenant's work and holds no tenant's slot.
        expectOk(yield* health)
        // The holder ends at its deadline, and frees the slot.
        expectError(yield* Fiber.join(holder), 504, "REQUEST_TIMEOUT")
        expectOk(yield* client.get("/open/v1/wallets"))
        expectOk(yield* requestToken(url, client.app))
      }), { timeout: 20_000 })
  }
)

layer(TestServerLive({ maxInFlight: 4 }), { excludeTestServices: true })("unauthenticated requests", (it) => {
  it.effect("300 slow unauthenticated bodies take none of the tenants' slots: a signed request is served at once", () =>
    Effect.scoped(Effect.gen(function*() {
      const url = yield* ServerUrl
      const { client } = yield* tenantClients()
      // The worst case: the tenant's own app ID, a current timestamp, a body that never arrives.
      const slow = () => slowRequestHead(url, { declared: 1000, headers: unverifiedSignature(client.app.appId) })
      // 150 from one address, which has 32 places; 150 from as many addresses, one each.
      const crowd = yield* Effect.forEach(Array.from({ length: 150 }, (_, i) => i), () => openRawSocket(url, slow(), { localAddress: "127.0.0.2" }))
      const spread = yield* Effect.forEach(
        Array.from({ length: 150 }, (_, i) => i),
        (i) => openRawSocket(url, slow(), { localAddress: `127.0.${1 + Math.floor(i / 200)}.${1 + (i % 200)}` })
      )
      const turnedAway = yield* Effect.forEach(crowd, (conn) => conn.response.pipe(Effect.timeout("1 second"), Effect.option), { concurrency: "unbounded" })
      const answered = turnedAway.flatMap((r) => (r._tag === "Some" ? [r.value] : []))
      expect(answered).toHaveLength(150 - 32)
      for (const res of answered) {
        expectError(res, 429, "RATE_LIMITED")
        expect(header(res, "retry-after")).toBe("1")
      }
      // Every slow body of the other addresses is still open and waiting.
      expect(spread).toHaveLength(150)
      const started = Date.now()
      const list = expectOk(yield* client.get("/open/v1/wallets"))
      expect(list.total).toBe(0)
      expectOk(yield* requestToken(url, client.app))
      expect(Date.now() - started).toBeLessThan(2000)
    })), { timeout: 30_000 })

})

layer(TestServerLive({ failureBurst: 5, failuresPerSecond: 1 }), { excludeTestServices: true })("failed authentications", (it) => {
  it.effect("an address's failed authentications have a budget: past it 429 before any look-up, other addresses unaffected", () =>
    Effect.scoped(Effect.gen(function*() {
      const url = yield* ServerUrl
      const { app } = yield* provisionTenant()
      const bad = (from: string) =>
        Effect.scoped(Effect.flatMap(
          openRawSocket(url, slowRequestHead(url, { declared: 0, headers: unverifiedSignature(app.appId) }), { localAddress: from }),
          (conn) => conn.response
        ))
      const statuses = yield* Effect.forEach(Array.from({ length: 5 }, (_, i) => i), () => Effect.map(bad("127.0.0.3"), (r) => r.status))
      expect(new Set(statuses)).toEqual(new Set([401]))
      const limited = yield* bad("127.0.0.3")
      expectError(limited, 429, "RATE_LIMITED")
      expect(limited.json.message).toBe("too many failed requests from this address")
      expect(header(limited, "retry-after")).toMatch(/^[0-9]+$/)
      expect((yield* bad("127.0.0.4")).status).toBe(401)
      expectOk(yield* requestToken(url, app))
    })))
})

layer(TestServerLive({ requestDeadline: Duration.millis(500) }), { excludeTestServices: true })("request deadline", (it) => {
  it.effect("a request still unfinished at the deadline is 504 REQUEST_TIMEOUT", () =>
    Effect.scoped(Effect.gen(function*() {
      const url = yield* ServerUrl
      const { app } = yield* provisionTenant()
      const started = Date.now()
      const conn = yield* openRawSocket(url, slowRequestHead(url, { headers: unverifiedSignature(app.appId) }))
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

  it.effect("requests within the deadline are served, and a timed-out one frees its place", () =>
    Effect.gen(function*() {
      const url = yield* ServerUrl
      const { app } = yield* provisionTenant()
      yield* Effect.scoped(Effect.flatMap(openRawSocket(url, slowRequestHead(url, { headers: unverifiedSignature(app.appId) })), (conn) => conn.response))
      expectOk(yield* health)
      expectOk(yield* requestToken(url, app))
    }))
})
