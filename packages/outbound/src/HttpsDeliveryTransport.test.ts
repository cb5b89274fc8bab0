import { Notifications } from "@collector/core"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Either, Exit, Fiber } from "effect"
import { type AddressInfo, createServer as createNetServer, type Server } from "node:net"
import * as HttpsDeliveryTransport from "./HttpsDeliveryTransport.js"
import { Ack, Hang, ServerError, startTestReceiver, testCaPem, WrongBody } from "./testing/TestReceiver.js"

const transport = HttpsDeliveryTransport.make({ extraCa: testCaPem, allowAnyPort: true, responseTimeoutMs: 1_000 })

const post = (t: typeof transport, port: number, host = "127.0.0.1", path = "/hook") =>
  Effect.either(Notifications.postOne(t, {
    url: `https://${host}:${port}${path}?x=1`,
    targets: [{ host, address: "127.0.0.1", family: 4, port }],
    headers: { "Content-Type": "application/json", "X-Event-Id": "7" },
    body: '{"hello":"world"}'
  }))

const failure = (result: Either.Either<unknown, Notifications.DeliveryFailed>) => {
  if (Either.isRight(result)) throw new Error("expected a failure")
  return result.left
}

describe("HttpsDeliveryTransport", () => {
  it.scoped("posts to the checked address with the URL's host as Host and SNI", () =>
    Effect.gen(function*() {
      const receiver = yield* startTestReceiver(Ack)
      // `receiver.test` is never resolved: the socket goes to 127.0.0.1 and the certificate is checked for the name.
      const result = yield* post(transport, receiver.port, "receiver.test")
      expect(Either.getOrThrow(result)).toEqual({ status: 200, body: '{"code":0,"message":"ok"}', truncated: false, location: null })
      const [request] = receiver.received()
      expect(request!.path).toBe("/hook?x=1")
      expect(request!.headers.host).toBe(`receiver.test:${receiver.port}`)
      expect(request!.headers["x-event-id"]).toBe("7")
      expect(request!.body).toBe('{"hello":"world"}')
    }))

  it.scoped("reports a redirect without following it, and a non-JSON 200 as it is", () =>
    Effect.gen(function*() {
      const receiver = yield* startTestReceiver({ _tag: "Redirect", location: "https://elsewhere.test/login" })
      const redirect = Either.getOrThrow(yield* post(transport, receiver.port))
      expect(redirect).toMatchObject({ status: 302, location: "https://elsewhere.test/login" })
      expect(receiver.received()).toHaveLength(1)
      yield* receiver.answer(WrongBody)
      expect(Either.getOrThrow(yield* post(transport, receiver.port)).body).toContain("<html>")
    }))

  it.scoped("cuts a long body at the cap", () =>
    Effect.gen(function*() {
      const receiver = yield* startTestReceiver({ _tag: "Huge" })
      const small = HttpsDeliveryTransport.make({ extraCa: testCaPem, allowAnyPort: true, maxResponseBytes: 1024 })
      const response = Either.getOrThrow(yield* post(small, receiver.port))
      expect(response.truncated).toBe(true)
      expect(response.body.length).toBe(1024)
    }))

  it.scoped("times out a receiver that never answers", () =>
    Effect.gen(function*() {
      const receiver = yield* startTestReceiver(Hang)
      const started = Date.now()
      const error = failure(yield* post(transport, receiver.port))
      expect(error.kind).toBe("timeout")
      expect(error.message).toBe("no complete response within 1000 ms")
      expect(Date.now() - started).toBeLessThan(3_000)
    }))

  it.scoped("verifies the certificate: unknown CA and wrong name fail as TLS", () =>
    Effect.gen(function*() {
      const receiver = yield* startTestReceiver(Ack)
      const noExtraCa = HttpsDeliveryTransport.make({ allowAnyPort: true })
      const untrusted = failure(yield* post(noExtraCa, receiver.port))
      expect(untrusted.kind).toBe("tls")
      expect(untrusted.message).toContain("UNABLE_TO_VERIFY_LEAF_SIGNATURE")
      const wrongName = failure(yield* post(transport, receiver.port, "other.test"))
      expect(wrongName.kind).toBe("tls")
      expect(wrongName.message).toContain("ERR_TLS_CERT_ALTNAME_INVALID")
      expect(receiver.received()).toHaveLength(0)
    }))

  it.scoped("refuses a port other than 443 unless allowed, and reports a refused connection", () =>
    Effect.gen(function*() {
      const receiver = yield* startTestReceiver(Ack)
      const strict = HttpsDeliveryTransport.make({ extraCa: testCaPem })
      expect(failure(yield* post(strict, receiver.port))).toEqual(new Notifications.DeliveryFailed({ kind: "protocol", message: "webhook URL must use port 443" }))
      const refused = failure(yield* post(transport, 1))
      expect(refused.kind).toBe("connect")
      expect(refused.message).toBe("could not connect to 127.0.0.1 (127.0.0.1:1): ECONNREFUSED")
    }))

  it.scoped("keeps every connection of a burst for the next one (no new TLS handshakes above 64 at once)", () =>
    Effect.gen(function*() {
      // No answer before all 100 requests of a burst have arrived: they are in flight together.
      const receiver = yield* startTestReceiver({ _tag: "AckTogether", together: 100 })
      // A slow machine may take seconds to open 100 TLS connections; the answer window must not end first.
      const patient = HttpsDeliveryTransport.make({ extraCa: testCaPem, allowAnyPort: true, responseTimeoutMs: 60_000 })
      const wave = Effect.forEach(Array.from({ length: 100 }), () => post(patient, receiver.port), { concurrency: "unbounded" })
      const first = yield* wave
      expect(first.every(Either.isRight)).toBe(true)
      expect(receiver.connections()).toBe(100)
      const second = yield* wave
      expect(second.every(Either.isRight)).toBe(true)
      expect(receiver.received()).toHaveLength(200)
      expect(receiver.connections()).toBe(100)
    }))

  it.scoped("reports each result of a batch as it arrives: a receiver that hangs holds back only its own", () =>
    Effect.gen(function*() {
      const receiver = yield* startTestReceiver(Ack)
      yield* receiver.answer(Hang, "/slow")
      const request = (path: string) => ({
        url: `https://127.0.0.1:${receiver.port}${path}`,
        targets: [{ host: "127.0.0.1", address: "127.0.0.1", family: 4 as const, port: receiver.port }],
        headers: { "Content-Type": "application/json" },
        body: "{}"
      })
      const started = Date.now()
      const reported: Array<{ readonly index: number; readonly ms: number; readonly status: number | string }> = []
      yield* transport.postEach([request("/slow"), request("/a"), request("/b")], (index, result) =>
        reported.push({ index, ms: Date.now() - started, status: Either.isRight(result) ? result.right.status : result.left.kind }))
      expect(reported.slice(0, 2).map((r) => r.index).sort()).toEqual([1, 2])
      expect(reported.slice(0, 2).map((r) => r.status)).toEqual([200, 200])
      expect(reported[2]).toMatchObject({ index: 0, status: "timeout" })
      expect(reported[2]!.ms).toBeGreaterThanOrEqual(1_000)
    }))

  it.scoped("tries the second checked address when the first refuses the connection, and no third", () =>
    Effect.gen(function*() {
      const receiver = yield* startTestReceiver(Ack)
      const refusing = { host: "receiver.test", address: "127.0.0.1", family: 4 as const, port: 1 }
      const listening = { host: "receiver.test", address: "127.0.0.1", family: 4 as const, port: receiver.port }
      const send = (targets: ReadonlyArray<typeof listening>) =>
        Effect.either(Notifications.postOne(transport, { url: "https://receiver.test/hook", targets, headers: {}, body: "{}" }))
      expect(Either.getOrThrow(yield* send([refusing, listening])).status).toBe(200)
      expect(receiver.received()).toHaveLength(1)
      // A response of any kind is the receiver's answer: a refused second address is not tried after it.
      yield* receiver.answer(ServerError)
      expect(Either.getOrThrow(yield* send([listening, refusing])).status).toBe(500)
      expect(failure(yield* send([refusing, refusing])).message).toBe("could not connect to receiver.test (127.0.0.1:1): ECONNREFUSED")
      expect(receiver.received()).toHaveLength(2)
    }))

  it.scoped("an interrupted batch abandons its open POSTs and reports none of them", () =>
    Effect.gen(function*() {
      const receiver = yield* startTestReceiver(Hang)
      const reported: Array<number> = []
      const fiber = yield* Effect.fork(transport.postEach([{
        url: `https://127.0.0.1:${receiver.port}/hook`,
        targets: [{ host: "127.0.0.1", address: "127.0.0.1", family: 4, port: receiver.port }],
        headers: {},
        body: "{}"
      }], (index) => reported.push(index)))
      while (receiver.received().length === 0) yield* Effect.promise(() => new Promise((done) => setTimeout(done, 10)))
      const interrupted = Date.now()
      yield* Fiber.interrupt(fiber)
      expect(Date.now() - interrupted).toBeLessThan(500)
      // Past the response timeout: the abandoned POST's timer was cleared, nothing is reported.
      yield* Effect.promise(() => new Promise((done) => setTimeout(done, 1_200)))
      expect(reported).toEqual([])
    }))

  it.scoped("the response window is the attempt's: a second address gets only what the first left of it", () =>
    Effect.gen(function*() {
      // The first address accepts TCP and never answers the TLS handshake: its connect timeout fires.
      const silent = yield* Effect.acquireRelease(
        Effect.async<Server>((resume) => {
          const server = createNetServer(() => {})
          server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
        }),
        (server) => Effect.sync(() => server.close())
      )
      const receiver = yield* startTestReceiver(Hang)
      const quick = HttpsDeliveryTransport.make({ extraCa: testCaPem, allowAnyPort: true, connectTimeoutMs: 300, responseTimeoutMs: 1_000 })
      const started = Date.now()
      const error = failure(yield* Effect.either(Notifications.postOne(quick, {
        url: "https://receiver.test/hook",
        targets: [
          { host: "receiver.test", address: "127.0.0.1", family: 4, port: (silent.address() as AddressInfo).port },
          { host: "receiver.test", address: "127.0.0.1", family: 4, port: receiver.port }
        ],
        headers: {},
        body: "{}"
      })))
      const elapsed = Date.now() - started
      expect(receiver.received()).toHaveLength(1)
      expect(error).toEqual(new Notifications.DeliveryFailed({ kind: "timeout", message: "no complete response within 1000 ms" }))
      // 300 ms on the first address, the rest of the 1 s window on the second (not 300 + 1000).
      expect(elapsed).toBeGreaterThanOrEqual(950)
      expect(elapsed).toBeLessThan(1_250)
    }))

  it.scoped("a result callback that throws ends the batch as a defect once every POST is reported", () =>
    Effect.gen(function*() {
      const receiver = yield* startTestReceiver(Ack)
      const request = {
        url: `https://127.0.0.1:${receiver.port}/hook`,
        targets: [{ host: "127.0.0.1", address: "127.0.0.1", family: 4 as const, port: receiver.port }],
        headers: {},
        body: "{}"
      }
      const reported: Array<number> = []
      const exit = yield* Effect.exit(transport.postEach([request, request], (index) => {
        reported.push(index)
        if (reported.length === 1) throw new Error("bug in the caller")
      }))
      expect(reported.sort()).toEqual([0, 1])
      expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
    }))
})
