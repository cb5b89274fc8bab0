import { openEnvelope } from "@collector/api"
import { Notifications } from "@collector/core"

import type { Lookup } from "@collector/outbound"
import { Hang, ServerError, startTestReceiver, type TestReceiver, WrongBody } from "@collector/outbound/testing"
import { PgDeliveryLedger } from "@collector/postgres"
import { TestDatabaseLive } from "@collector/postgres/testing"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Either, Exit, Fiber, TestClock } from "effect"
import {
  attemptRows,
  dispatcherFor,
  eventRow,
  type HarnessOptions,
  parkOtherEvents,
  redeliver,
  roundRows,
  seedEvent,
  seedScope,
  setWebhook,
  swappableLookup
} from "./testing/DeliveryHarness.js"

const start = new Date("2026-03-01T00:00:00.000Z")
const holder = "test-dispatcher"

const dispatchOnce = (options: HarnessOptions = {}) =>
  Effect.flatMap(Notifications.Dispatcher, (d) => d.dispatchOnce("nile", holder)).pipe(Effect.provide(dispatcherFor(options)))

/** Real time, not the test clock: for what happens on real sockets. */
const realPause = Effect.promise(() => new Promise((done) => setTimeout(done, 20)))

const interrupted = "interrupted: the worker stopped before the attempt finished"

const openedBody = (key: Uint8Array, body: string) => Either.getOrThrow(openEnvelope(key, JSON.parse(body)))

/** A scope whose webhook points at `path` on the receiver, with one event due now. */
const scopeWithEvent = (receiver: TestReceiver, path: string) =>
  Effect.gen(function*() {
    const scope = yield* seedScope({ url: receiver.url(path), enabled: true })
    const event = yield* seedEvent(scope, start)
    return { scope, event }
  })

layer(TestDatabaseLive, { timeout: 120_000 })("Dispatcher over Postgres and HTTPS", (it) => {
  it.scoped("delivers: the envelope opens to the stored payload and the headers are exact", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(start.getTime())
      yield* parkOtherEvents
      const receiver = yield* startTestReceiver()
      const { scope, event } = yield* scopeWithEvent(receiver, "/ok")
      expect(yield* dispatchOnce()).toBe(1)
      const [request] = receiver.receivedAt("/ok")
      expect(receiver.receivedAt("/ok")).toHaveLength(1)
      expect(request!.method).toBe("POST")
      const { host, "content-length": length, connection, ...headers } = request!.headers
      expect(host).toBe(`127.0.0.1:${receiver.port}`)
      expect(Number(length)).toBe(Buffer.byteLength(request!.body))
      expect(connection).toBeDefined()
      expect(headers).toEqual({
        "content-type": "application/json",
        "x-app-id": scope.appId,
        "x-event-id": event.id,
        "x-event-type": "sweep.succeeded"
      })
      const envelope = JSON.parse(request!.body)
      expect(Object.keys(envelope)).toEqual(["version", "algorithm", "nonce", "ciphertext", "timestamp"])
      expect(envelope.timestamp).toBe(start.toISOString())
      expect(openedBody(scope.webhookKey, request!.body)).toBe(event.payload)
      const row = yield* eventRow(event.id)
      expect(row).toMatchObject({ status: "delivered", attempts: 1, current_round: 1, next_attempt: null, last_error: "", round_url: receiver.url("/ok"), claimed_by: null })
      expect(row.delivered_at).toEqual(start)
      expect(yield* attemptRows(event.id)).toMatchObject([
        { round: 1, attempt: 1, url: receiver.url("/ok"), http_status: 200, response_excerpt: '{"code":0,"message":"ok"}', error: "", outcome: "delivered" }
      ])
      expect(yield* roundRows(event.id)).toMatchObject([{ round: 1, url: receiver.url("/ok"), outcome: "delivered", reason: "" }])
      // Nothing is due any more.
      expect(yield* dispatchOnce()).toBe(0)
    }))

  it.scoped("records every failure kind with its reason and schedules the next attempt", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(start.getTime())
      yield* parkOtherEvents
      const receiver = yield* startTestReceiver()
      yield* receiver.answer(WrongBody, "/wrong")
      yield* receiver.answer(ServerError, "/error")
      yield* receiver.answer({ _tag: "Redirect", location: "https://elsewhere.test/x" }, "/redirect")
      yield* receiver.answer(Hang, "/hang")
      yield* receiver.answer({ _tag: "Status", status: 200, body: '{"code":"0"}' }, "/code")
      const cases = [
        { path: "/wrong", status: 200, error: "HTTP 200 but the response body is not JSON" },
        { path: "/error", status: 500, error: "HTTP 500: expected 200" },
        { path: "/redirect", status: 302, error: "HTTP 302 redirect to https://elsewhere.test/x; redirects are not followed" },
        { path: "/hang", status: null, error: "no complete response within 1000 ms" },
        { path: "/code", status: 200, error: 'HTTP 200 but the response\'s top-level "code" is "0"; expected 0' }
      ]
      const seeded = yield* Effect.forEach(cases, (c) => scopeWithEvent(receiver, c.path))
      // A certificate for another name, and a port nobody listens on.
      const tls = yield* seedScope({ url: `https://other.test:${receiver.port}/tls`, enabled: true })
      const tlsEvent = yield* seedEvent(tls, start)
      const refused = yield* seedScope({ url: "https://127.0.0.1:1/refused", enabled: true })
      const refusedEvent = yield* seedEvent(refused, start)
      const lookup = swappableLookup({ "other.test": "127.0.0.1" }).lookup
      expect(yield* dispatchOnce({ lookup })).toBe(cases.length + 2)
      for (const [i, c] of cases.entries()) {
        const id = seeded[i]!.event.id
        const row = yield* eventRow(id)
        expect(row, c.path).toMatchObject({ status: "pending", attempts: 1, last_error: c.error })
        const delay = row.next_attempt!.getTime() - start.getTime()
        expect(delay).toBeGreaterThanOrEqual(9_000)
        expect(delay).toBeLessThanOrEqual(11_000)
        expect(yield* attemptRows(id)).toMatchObject([{ attempt: 1, http_status: c.status, error: c.error, outcome: "failed" }])
      }
      expect((yield* eventRow(tlsEvent.id)).last_error).toMatch(/^TLS failure with other\.test \(127\.0\.0\.1:\d+\): ERR_TLS_CERT_ALTNAME_INVALID/)
      expect((yield* eventRow(refusedEvent.id)).last_error).toBe("could not connect to 127.0.0.1 (127.0.0.1:1): ECONNREFUSED")
      expect((yield* attemptRows("" + seeded[1]!.event.id))[0]!.response_excerpt).toBe('{"code":1,"message":"boom"}')
      expect(receiver.receivedAt("/tls")).toHaveLength(0)
    }))

  it.scoped("resolves a URL's host once for the attempts one claim starts together, and again for the next claim", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(start.getTime())
      yield* parkOtherEvents
      const receiver = yield* startTestReceiver()
      const table = swappableLookup({ localhost: "127.0.0.1" })
      let lookups = 0
      const lookup = (host: string) => {
        lookups++
        return table.lookup(host)
      }
      const scope = yield* seedScope({ url: `https://localhost:${receiver.port}/batch`, enabled: true })
      const events = yield* Effect.forEach([1, 2, 3], () => seedEvent(scope, start))
      expect(yield* dispatchOnce({ lookup })).toBe(3)
      expect(lookups).toBe(1)
      expect(receiver.receivedAt("/batch")).toHaveLength(3)
      for (const event of events) expect((yield* eventRow(event.id)).status).toBe("delivered")
      // A later claim checks the name again: a changed answer is seen by the next batch.
      yield* seedEvent(scope, start)
      expect(yield* dispatchOnce({ lookup })).toBe(1)
      expect(lookups).toBe(2)
    }))

  it.scoped("a receiver's body that PostgreSQL cannot store as it is is recorded made storable, and blocks no other outcome", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(start.getTime())
      yield* parkOtherEvents
      const receiver = yield* startTestReceiver()
      // Cut at 1,024 characters inside the emoji, and a NUL: text PostgreSQL refuses.
      yield* receiver.answer({ _tag: "Status", status: 500, body: "x".repeat(1023) + "😀\u0000" }, "/odd")
      const odd = yield* scopeWithEvent(receiver, "/odd")
      const fine = yield* scopeWithEvent(receiver, "/fine")
      expect(yield* dispatchOnce()).toBe(2)
      expect(yield* attemptRows(odd.event.id)).toMatchObject([{ http_status: 500, response_excerpt: "x".repeat(1023) + "\uFFFD", error: "HTTP 500: expected 200" }])
      expect((yield* eventRow(odd.event.id)).status).toBe("pending")
      expect((yield* eventRow(fine.event.id)).status).toBe("delivered")
    }))

  it.scoped("runs the full schedule: 20 attempts at their offsets with jitter, then the round fails", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(start.getTime())
      yield* parkOtherEvents
      const receiver = yield* startTestReceiver(ServerError)
      const { event } = yield* scopeWithEvent(receiver, "/schedule")
      for (let k = 1; k <= 20; k++) {
        expect(yield* dispatchOnce(), `attempt ${k}`).toBe(1)
        const row = yield* eventRow(event.id)
        expect(row.attempts).toBe(k)
        if (k === 20) break
        const offset = Duration.toMillis(Notifications.attemptOffsets[k]!)
        const delay = row.next_attempt!.getTime() - start.getTime()
        expect(delay).toBeGreaterThanOrEqual(Math.floor(offset * 0.9))
        expect(delay).toBeLessThanOrEqual(Math.ceil(offset * 1.1))
        // Just before it is due nothing happens.
        yield* TestClock.setTime(row.next_attempt!.getTime() - 1)
        expect(yield* dispatchOnce()).toBe(0)
        yield* TestClock.setTime(row.next_attempt!.getTime())
      }
      const row = yield* eventRow(event.id)
      expect(row).toMatchObject({ status: "failed", attempts: 20, next_attempt: null, last_error: "20 attempts failed; last error: HTTP 500: expected 200" })
      expect(receiver.receivedAt("/schedule")).toHaveLength(20)
      // A fresh nonce every attempt.
      expect(new Set(receiver.receivedAt("/schedule").map((r) => JSON.parse(r.body).nonce)).size).toBe(20)
      expect(yield* roundRows(event.id)).toMatchObject([{ round: 1, outcome: "failed", reason: row.last_error }])
      yield* TestClock.adjust("30 hours")
      expect(yield* dispatchOnce()).toBe(0)
    }))

  it.scoped("ends the round at its deadline without another attempt", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(start.getTime())
      yield* parkOtherEvents
      const receiver = yield* startTestReceiver(ServerError)
      const { event } = yield* scopeWithEvent(receiver, "/deadline")
      expect(yield* dispatchOnce()).toBe(1)
      // The workers were down for a day.
      yield* TestClock.setTime(start.getTime() + 24 * 3_600_000)
      expect(yield* dispatchOnce()).toBe(1)
      expect(yield* eventRow(event.id)).toMatchObject({
        status: "failed",
        attempts: 1,
        next_attempt: null,
        last_error: "round deadline reached; last error: HTTP 500: expected 200"
      })
      expect(receiver.receivedAt("/deadline")).toHaveLength(1)
    }))

  it.scoped("ends a round at once when the webhook is disabled or not configured", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(start.getTime())
      yield* parkOtherEvents
      const receiver = yield* startTestReceiver()
      const disabled = yield* seedScope({ url: receiver.url("/disabled"), enabled: false })
      const unconfigured = yield* seedScope({ url: "", enabled: false })
      const a = yield* seedEvent(disabled, start)
      const b = yield* seedEvent(unconfigured, start)
      expect(yield* dispatchOnce()).toBe(2)
      expect(yield* eventRow(a.id)).toMatchObject({ status: "failed", attempts: 0, next_attempt: null, last_error: "webhook delivery is disabled", round_url: "" })
      expect(yield* eventRow(b.id)).toMatchObject({ status: "failed", attempts: 0, next_attempt: null, last_error: "no webhook URL is configured" })
      expect(yield* roundRows(a.id)).toMatchObject([{ round: 1, url: "", outcome: "failed", reason: "webhook delivery is disabled" }])
      expect(yield* attemptRows(a.id)).toEqual([])
      expect(receiver.received()).toHaveLength(0)
    }))

  it.scoped("keeps a round's URL to its end; a redelivered round reads the new configuration", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(start.getTime())
      yield* parkOtherEvents
      const receiver = yield* startTestReceiver()
      yield* receiver.answer(ServerError, "/old")
      const { scope, event } = yield* scopeWithEvent(receiver, "/old")
      expect(yield* dispatchOnce()).toBe(1)
      yield* setWebhook(scope.tenantId, "nile", { url: receiver.url("/new"), enabled: true })
      yield* TestClock.adjust("11 seconds")
      expect(yield* dispatchOnce()).toBe(1)
      expect(receiver.receivedAt("/old")).toHaveLength(2)
      expect(receiver.receivedAt("/new")).toHaveLength(0)
      // The round fails at its deadline; the tenant then re-pushes.
      yield* TestClock.adjust("24 hours")
      expect(yield* dispatchOnce()).toBe(1)
      expect((yield* eventRow(event.id)).status).toBe("failed")
      const now = new Date(start.getTime() + 24 * 3_600_000 + 11_000)
      yield* redeliver(event.id, now)
      expect(yield* dispatchOnce()).toBe(1)
      expect(receiver.receivedAt("/new")).toHaveLength(1)
      expect(openedBody(scope.webhookKey, receiver.receivedAt("/new")[0]!.body)).toBe(event.payload)
      expect(yield* eventRow(event.id)).toMatchObject({ status: "delivered", current_round: 2, attempts: 1, round_url: receiver.url("/new") })
      expect(yield* roundRows(event.id)).toMatchObject([
        { round: 1, url: receiver.url("/old"), outcome: "failed" },
        { round: 2, url: receiver.url("/new"), outcome: "delivered" }
      ])
      expect((yield* attemptRows(event.id)).map((a) => [a.round, a.attempt, a.outcome])).toEqual([[1, 1, "failed"], [1, 2, "failed"], [2, 1, "delivered"]])
    }))

  it.scoped("checks the URL again at every attempt: a name now resolving to a private address is refused", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(start.getTime())
      yield* parkOtherEvents
      const receiver = yield* startTestReceiver()
      const dns = swappableLookup({ "receiver.test": "93.184.216.34" })
      const scope = yield* seedScope({ url: "https://receiver.test/hook", enabled: true })
      const event = yield* seedEvent(scope, start)
      // The name was public when saved; at delivery it resolves to loopback (DNS rebinding).
      dns.set({ "receiver.test": "127.0.0.1" })
      expect(yield* dispatchOnce({ allowPrivateTargets: false, lookup: dns.lookup })).toBe(1)
      const reason = "target refused: webhook URL host receiver.test does not resolve to public addresses only " +
        "(an operator can allow private targets and other ports with WEBHOOK_ALLOW_PRIVATE_TARGETS=true)"
      expect(yield* eventRow(event.id)).toMatchObject({ status: "pending", attempts: 1, last_error: reason })
      expect(yield* attemptRows(event.id)).toMatchObject([{ attempt: 1, http_status: null, error: reason, outcome: "failed" }])
      expect(receiver.received()).toHaveLength(0)
    }))

  it.scoped("a dispatcher stopped mid-attempt closes the attempt at once as interrupted", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(start.getTime())
      yield* parkOtherEvents
      const receiver = yield* startTestReceiver(Hang)
      const { event } = yield* scopeWithEvent(receiver, "/stop")
      const fiber = yield* Effect.fork(dispatchOnce({ responseTimeoutMs: 30_000 }))
      // The request is on its way through a real socket.
      while (receiver.receivedAt("/stop").length === 0) yield* realPause
      yield* Fiber.interrupt(fiber)
      expect(yield* attemptRows(event.id)).toMatchObject([{ attempt: 1, outcome: "failed", error: "interrupted: the worker stopped before the attempt finished" }])
      const row = yield* eventRow(event.id)
      expect(row).toMatchObject({ status: "pending", attempts: 1, claimed_by: null, last_error: "interrupted: the worker stopped before the attempt finished" })
      expect(row.next_attempt!.getTime() - start.getTime()).toBeGreaterThanOrEqual(9_000)
    }))

  it.scoped("a dispatcher stopped before sending withdraws the attempt at once: not counted, due as before, delivered next as attempt 1", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(start.getTime())
      yield* parkOtherEvents
      const receiver = yield* startTestReceiver()
      const url = receiver.url("/early", "receiver.test")
      const scope = yield* seedScope({ url, enabled: true })
      const event = yield* seedEvent(scope, start)
      // The URL check waits on a name server that does not answer: nothing is sent yet.
      let lookups = 0
      const silent: Lookup = () => {
        lookups++
        return new Promise(() => {})
      }
      const fiber = yield* Effect.fork(dispatchOnce({ lookup: silent }))
      while (lookups === 0) yield* realPause
      yield* Fiber.interrupt(fiber)
      expect(yield* eventRow(event.id)).toMatchObject({ status: "pending", attempts: 0, next_attempt: start, last_error: "", claimed_by: null })
      expect(yield* attemptRows(event.id)).toEqual([])
      // The round that claim started stays started, with its URL.
      expect(yield* roundRows(event.id)).toMatchObject([{ round: 1, url, outcome: null }])
      expect(yield* dispatchOnce()).toBe(1)
      expect(receiver.receivedAt("/early")).toHaveLength(1)
      expect(yield* eventRow(event.id)).toMatchObject({ status: "delivered", attempts: 1, current_round: 1, last_error: "" })
      expect(yield* attemptRows(event.id)).toMatchObject([{ round: 1, attempt: 1, error: "", outcome: "delivered" }])
    }))

  it.scoped("a dispatcher that died after its claim: the next one withdraws what was never sent, and counts what was", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(start.getTime())
      yield* parkOtherEvents
      const receiver = yield* startTestReceiver()
      const { event: unsent } = yield* scopeWithEvent(receiver, "/unsent")
      const { event: sent } = yield* scopeWithEvent(receiver, "/sent")
      // Dies where the crash tests kill the worker: attempts started, none marked sending.
      const death = (point: string) => point === "delivery:claimed" ? Effect.die("power cut") : Effect.void
      const dead = Effect.flatMap(Notifications.Dispatcher, (d) => d.dispatchOnce("nile", "dead-worker")).pipe(
        Effect.provide(dispatcherFor({ settings: { checkpoint: death } }))
      )
      expect(Exit.isFailure(yield* Effect.exit(dead))).toBe(true)
      expect(yield* attemptRows(unsent.id)).toMatchObject([{ attempt: 1, ended_at: null }])
      // The other one got as far as its POST (under the name of the dead dispatcher's first claim).
      const ledger = yield* Notifications.DeliveryLedger
      expect(yield* ledger.markSending([{ claim: { holder: "dead-worker#1", eventId: sent.id, round: 1 }, attempt: 1 }], start)).toEqual([sent.id])
      // Both are taken over once the claim runs out.
      yield* TestClock.adjust(Duration.sum(Notifications.defaultDispatcherSettings.claimLease, Duration.seconds(1)))
      expect(yield* dispatchOnce()).toBe(2)
      expect(yield* eventRow(unsent.id)).toMatchObject({ status: "pending", attempts: 0, next_attempt: start, last_error: "", claimed_by: null })
      expect(yield* attemptRows(unsent.id)).toEqual([])
      expect(yield* eventRow(sent.id)).toMatchObject({ status: "pending", attempts: 1, last_error: interrupted, claimed_by: null })
      expect(yield* attemptRows(sent.id)).toMatchObject([{ attempt: 1, outcome: "failed", error: interrupted }])
      expect(receiver.received()).toHaveLength(0)
      // The unsent one goes out as attempt 1; the other's attempt 2 is due by now too.
      expect(yield* dispatchOnce()).toBe(2)
      expect(receiver.receivedAt("/unsent")).toHaveLength(1)
      expect(yield* eventRow(unsent.id)).toMatchObject({ status: "delivered", attempts: 1 })
      expect(yield* attemptRows(unsent.id)).toMatchObject([{ attempt: 1, outcome: "delivered" }])
      expect((yield* attemptRows(sent.id)).map((a) => [a.attempt, a.outcome])).toEqual([[1, "failed"], [2, "delivered"]])
    }).pipe(Effect.provide(PgDeliveryLedger.layer)))

  it.scoped("a fault in the worker before sending closes the attempt as failed: it counts, so a recurring fault cannot retry without end", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(start.getTime())
      yield* parkOtherEvents
      const receiver = yield* startTestReceiver()
      const { event } = yield* scopeWithEvent(receiver, "/fault")
      const faulty = (ledger: Notifications.DeliveryLedger["Type"]): Notifications.DeliveryLedger["Type"] => ({ ...ledger, markSending: () => Effect.die(new Error("bug")) })
      expect(yield* dispatchOnce({ ledger: faulty })).toBe(1)
      const fault = "worker fault: the attempt failed inside the worker"
      const row = yield* eventRow(event.id)
      expect(row).toMatchObject({ status: "pending", attempts: 1, last_error: fault, claimed_by: null })
      expect(row.next_attempt!.getTime() - start.getTime()).toBeGreaterThanOrEqual(9_000)
      expect(yield* attemptRows(event.id)).toMatchObject([{ attempt: 1, outcome: "failed", http_status: null, error: fault }])
      expect(receiver.received()).toHaveLength(0)
    }))
})
