import { Notifications } from "@collector/core"

import { Ack, Hang, Hold, startTestReceiver } from "@collector/outbound/testing"
import { PgDeliveryLedger } from "@collector/postgres"
import { TestDatabaseLive } from "@collector/postgres/testing"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Fiber } from "effect"
import { dispatcherFor, eventRow, parkOtherEvents, seedEvent, seedScope } from "./testing/DeliveryHarness.js"

const countBy = (values: ReadonlyArray<string>) => {
  const counts = new Map<string, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  return counts
}

layer(TestDatabaseLive, { timeout: 120_000, excludeTestServices: true })("Dispatchers side by side", (it) => {
  it.scoped("two dispatchers at once never send one attempt twice", () =>
    Effect.gen(function*() {
      yield* parkOtherEvents
      const receiver = yield* startTestReceiver(Ack)
      const now = new Date()
      const scopes = yield* Effect.forEach([1, 2, 3, 4], () => seedScope({ url: receiver.url("/both"), enabled: true }))
      const events = yield* Effect.forEach(Array.from({ length: 60 }, (_, i) => i), (i) => seedEvent(scopes[i % 4]!, now))
      // Each dispatcher claims small batches in a tight loop, so their claims keep colliding.
      const drain = (holder: string) =>
        Effect.flatMap(Notifications.Dispatcher, (d) =>
          Effect.iterate(0, { while: (idle) => idle < 3, body: (idle) => Effect.map(d.dispatchOnce("nile", holder), (n) => (n === 0 ? idle + 1 : 0)) })).pipe(
          Effect.provide(dispatcherFor({ settings: { maxInFlight: 4, perTenant: 2 } }))
        )
      yield* Effect.all([drain("a"), drain("b"), drain("c")], { concurrency: "unbounded" })
      const sent = countBy(receiver.receivedAt("/both").map((r) => String(r.headers["x-event-id"])))
      expect(sent.size).toBe(60)
      expect([...sent.values()].every((n) => n === 1)).toBe(true)
      for (const event of events) expect((yield* eventRow(event.id)).status).toBe("delivered")
      const sql = yield* SqlClient.SqlClient
      const [attempts] = yield* sql<{ n: number }>`
        SELECT count(*)::int AS n FROM delivery_attempts WHERE event_id IN ${sql.in(events.map((e) => e.id))}`
      expect(attempts!.n).toBe(60)
    }))

  it.scoped("claims never overlap, each starts its attempts once, and an attempt already started is not started again", () =>
    Effect.gen(function*() {
      yield* parkOtherEvents
      const scope = yield* seedScope({ url: "https://127.0.0.1/none", enabled: true })
      const now = new Date()
      yield* Effect.forEach(Array.from({ length: 10 }, (_, i) => i), () => seedEvent(scope, now))
      const ledger = yield* Notifications.DeliveryLedger
      const request = (holder: string, at = now) =>
        ledger.claimDue({
          network: "nile",
          now: at,
          holder,
          leaseUntil: new Date(at.getTime() + 60_000),
          limit: 10,
          perTenant: 10,
          held: new Map(),
          maxAttempts: 20,
          roundDeadline: new Date(at.getTime() + 86_400_000)
        })
      const [a, b] = yield* Effect.all([request("a"), request("b")], { concurrency: 2 })
      const ids = [...a!, ...b!].map((e) => e.eventId)
      expect(ids).toHaveLength(10)
      expect(new Set(ids).size).toBe(10)
      // Each claim started the round and the first attempt of what it took, once.
      expect([...a!, ...b!].map((e) => e.started)).toEqual(ids.map(() => ({ attempt: 1, url: "https://127.0.0.1/none", startedAt: now })))
      const sql = yield* SqlClient.SqlClient
      const [rows] = yield* sql<{ attempts: number; rounds: number }>`
        SELECT (SELECT count(*)::int FROM delivery_attempts WHERE event_id IN ${sql.in(ids)}) AS attempts,
               (SELECT count(*)::int FROM delivery_rounds WHERE event_id IN ${sql.in(ids)}) AS rounds`
      expect(rows).toEqual({ attempts: 10, rounds: 10 })
      // Once the claims ran out, another dispatcher takes the events over but starts no attempt
      // while the first ones are open: it gets them to close as interrupted.
      const later = new Date(now.getTime() + 61_000)
      const [c] = yield* Effect.all([request("c", later)])
      expect(c!.map((e) => [e.started, e.openAttempt?.attempt])).toEqual(ids.map(() => [null, 1]))
      const [again] = yield* sql<{ attempts: number }>`SELECT count(*)::int AS attempts FROM delivery_attempts WHERE event_id IN ${sql.in(ids)}`
      expect(again!.attempts).toBe(10)
      // A holder that lost its claim cannot close the attempt or move the event.
      const event = c![0]!
      yield* ledger.finishAttempts([{
        claim: Notifications.claimOf("a", event),
        attempt: 1,
        record: { endedAt: later, durationMs: 1, httpStatus: 200, responseExcerpt: "", error: "", delivered: true },
        next: { _tag: "Delivered" }
      }])
      const [open] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM delivery_attempts WHERE event_id = ${event.eventId} AND ended_at IS NULL`
      expect(open!.n).toBe(1)
    }).pipe(Effect.provide(PgDeliveryLedger.layer)))

  it.scoped("a slow tenant does not delay another tenant's delivery", () =>
    Effect.gen(function*() {
      yield* parkOtherEvents
      const receiver = yield* startTestReceiver(Ack)
      yield* receiver.answer(Hang, "/slow")
      const slow = yield* seedScope({ url: receiver.url("/slow"), enabled: true })
      const fast = yield* seedScope({ url: receiver.url("/fast"), enabled: true })
      const now = new Date()
      const slowEvents = yield* Effect.forEach(Array.from({ length: 30 }, (_, i) => i), () => seedEvent(slow, now))
      // The slow endpoint never answers: its attempts stay open for the whole response window.
      const runner = yield* Effect.fork(Effect.flatMap(Notifications.Dispatcher, (d) => d.run("nile", "runner")).pipe(
        Effect.provide(dispatcherFor({ responseTimeoutMs: 60_000, settings: { maxInFlight: 8, perTenant: 4, pollInterval: Duration.millis(20), statusInterval: Duration.millis(50) } }))
      ))
      // Wait until the slow tenant's share of attempts hangs at its endpoint (TLS handshakes take a moment on a busy machine).
      const until = Date.now() + 4_000
      while (receiver.receivedAt("/slow").length < 4 && Date.now() < until) yield* Effect.sleep("20 millis")
      yield* Effect.sleep("100 millis")
      expect(receiver.receivedAt("/slow").length).toBe(4)
      // Not a timing bound: the fast tenant's event must be delivered while the slow tenant's
      // attempts are still open (behind them, it would wait out their 60 s response window).
      const created = Date.now()
      const fastEvent = yield* seedEvent(fast, new Date())
      while ((yield* eventRow(fastEvent.id)).status !== "delivered") {
        if (Date.now() - created > 20_000) {
          const row = yield* eventRow(fastEvent.id)
          const sql = yield* SqlClient.SqlClient
          const attempts = yield* sql`SELECT attempt, started_at, sent_at, ended_at, error FROM delivery_attempts WHERE event_id = ${fastEvent.id}`.pipe(Effect.orDie)
          throw new Error(`the fast tenant's event waited behind the slow tenant: ${JSON.stringify({ row, attempts, fastReceived: receiver.receivedAt("/fast").length, slowReceived: receiver.receivedAt("/slow").length })}`)
        }
        yield* Effect.sleep("20 millis")
      }
      const sql = yield* SqlClient.SqlClient
      const [open] = yield* sql<{ n: number }>`
        SELECT count(*)::int AS n FROM delivery_attempts WHERE event_id IN ${sql.in(slowEvents.map((e) => e.id))} AND ended_at IS NULL`
      expect(open!.n).toBe(4)
      // Still nothing back from the slow endpoint, and it holds no more than its share.
      expect(receiver.receivedAt("/slow").length).toBe(4)
      // The dashboard's `engine` row: the slow tenant's 30 events are due (4 of them in flight).
      yield* Effect.sleep("200 millis")
      const [board] = yield* sql<{ status: string; detail: string }>`
        SELECT status, detail FROM worker_status WHERE component = 'notifier' AND network = 'nile'`
      expect(board!.status).toBe("ok")
      expect(board!.detail).toMatch(/^30 events due, oldest due [0-9]+ s ago$/)
      yield* Fiber.interrupt(runner)
    }))

  it.scoped("a running dispatcher claims again as its slots come free, without waiting to poll", () =>
    Effect.gen(function*() {
      yield* parkOtherEvents
      const receiver = yield* startTestReceiver(Ack)
      const scopes = yield* Effect.forEach([1, 2], () => seedScope({ url: receiver.url("/refill"), enabled: true }))
      const events = yield* Effect.forEach(Array.from({ length: 40 }, (_, i) => i), (i) => seedEvent(scopes[i % 2]!, new Date()))
      // Four slots for forty events, and a poll interval far longer than the test: only slots
      // given back by finished attempts can wake the loop to claim the rest.
      const runner = yield* Effect.fork(Effect.flatMap(Notifications.Dispatcher, (d) => d.run("nile", "refill")).pipe(
        Effect.provide(dispatcherFor({ settings: { maxInFlight: 4, perTenant: 2, pollInterval: Duration.seconds(60), statusInterval: Duration.seconds(60) } }))
      ))
      const started = Date.now()
      while (receiver.receivedAt("/refill").length < 40 && Date.now() - started < 10_000) yield* Effect.sleep("20 millis")
      expect(receiver.receivedAt("/refill")).toHaveLength(40)
      while ((yield* Effect.forEach(events, (e) => eventRow(e.id))).some((row) => row.status !== "delivered")) yield* Effect.sleep("20 millis")
      const sql = yield* SqlClient.SqlClient
      const [attempts] = yield* sql<{ n: number }>`
        SELECT count(*)::int AS n FROM delivery_attempts WHERE event_id IN ${sql.in(events.map((e) => e.id))} AND outcome = 'delivered'`
      expect(attempts!.n).toBe(40)
      yield* Fiber.interrupt(runner)
    }))

  it.scoped("a tenant held at its share claims again as its own attempts end, though the claim before found nothing", () =>
    Effect.gen(function*() {
      yield* parkOtherEvents
      const receiver = yield* startTestReceiver(Ack)
      yield* receiver.answer(Hold, "/held")
      const held = yield* seedScope({ url: receiver.url("/held"), enabled: true })
      const quick = yield* seedScope({ url: receiver.url("/quick"), enabled: true })
      const heldEvents = yield* Effect.forEach([1, 2, 3], () => seedEvent(held, new Date()))
      const quickEvent = yield* seedEvent(quick, new Date())
      const runner = yield* Effect.fork(Effect.flatMap(Notifications.Dispatcher, (d) => d.run("nile", "share")).pipe(
        Effect.provide(dispatcherFor({ settings: { maxInFlight: 4, perTenant: 2, pollInterval: Duration.seconds(60), statusInterval: Duration.seconds(60) } }))
      ))
      // Two of the held tenant's events wait at its endpoint (its share); the quick tenant's one
      // is delivered, which wakes the loop to claim with room for two: the held tenant is at its
      // share, so that claim finds nothing.
      const until = Date.now() + 10_000
      while ((receiver.receivedAt("/held").length < 2 || (yield* eventRow(quickEvent.id)).status !== "delivered") && Date.now() < until) {
        yield* Effect.sleep("20 millis")
      }
      expect(receiver.receivedAt("/held")).toHaveLength(2)
      yield* Effect.sleep("300 millis")
      // Its two attempts ending give it room again: the third is claimed then, not at the next poll a minute on.
      yield* receiver.answer(Ack, "/held")
      yield* receiver.release
      const released = Date.now()
      while (receiver.receivedAt("/held").length < 3 && Date.now() - released < 15_000) yield* Effect.sleep("20 millis")
      expect(receiver.receivedAt("/held")).toHaveLength(3)
      while ((yield* Effect.forEach(heldEvents, (e) => eventRow(e.id))).some((row) => row.status !== "delivered")) yield* Effect.sleep("20 millis")
      yield* Fiber.interrupt(runner)
    }))
})
