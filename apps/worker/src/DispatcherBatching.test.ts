import { type Kernel, Notifications } from "@collector/core"

import { Ack, ServerError, startTestReceiver } from "@collector/outbound/testing"
import { PgDeliveryLedger } from "@collector/postgres"
import { TestDatabaseLive } from "@collector/postgres/testing"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect } from "effect"
import {
  attemptRows,
  dispatcherFor,
  eventRow,
  type HarnessOptions,
  parkOtherEvents,
  roundRows,
  type SeededScope,
  seedEvent,
  seedScope
} from "./testing/DeliveryHarness.js"

const holder = "batching"

const claimRequest = (who: string, now: Date, limit: number, perTenant: number, held: ReadonlyMap<string, number> = new Map()) => ({
  network: "nile" as const,
  now,
  holder: who,
  leaseUntil: new Date(now.getTime() + 60_000),
  limit,
  perTenant,
  held: held as ReadonlyMap<Kernel.TenantId, number>,
  maxAttempts: 20,
  roundDeadline: new Date(now.getTime() + 86_400_000)
})
const interrupted = "interrupted: the worker stopped before the attempt finished"

const dispatchOnce = (options: HarnessOptions = {}) =>
  Effect.flatMap(Notifications.Dispatcher, (d) => d.dispatchOnce("nile", holder)).pipe(Effect.provide(dispatcherFor(options)))

/** Every call the dispatcher makes to the ledger's batch operations, with what it passed. */
const recordingLedger = () => {
  const calls = { claims: [] as Array<{ claimed: number; started: number }>, finishAttempts: [] as Array<ReadonlyArray<Notifications.AttemptFinish>> }
  const wrap = (ledger: Notifications.DeliveryLedger["Type"]): Notifications.DeliveryLedger["Type"] => ({
    ...ledger,
    claimDue: (r) =>
      Effect.tap(ledger.claimDue(r), (events) => Effect.sync(() => calls.claims.push({ claimed: events.length, started: events.filter((e) => e.started !== null).length }))),
    finishAttempts: (finishes) => Effect.tap(ledger.finishAttempts(finishes), () => Effect.sync(() => calls.finishAttempts.push(finishes)))
  })
  return { calls, wrap }
}

/** An event whose worker died in the middle of attempt 1: the attempt is open and the claim ran out. */
const seedOpenAttempt = (scope: SeededScope, url: string, startedAt: Date) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const event = yield* seedEvent(scope, startedAt)
    yield* sql`
      UPDATE events SET attempts = 1, status = 'delivering', round_url = ${url}, round_started_at = ${startedAt},
             claimed_by = 'dead-worker', claimed_until = ${new Date(startedAt.getTime() + 1_000)}
      WHERE id = ${event.id}`
    yield* sql`
      INSERT INTO delivery_rounds (event_id, round, url, started_at, deadline_at)
      VALUES (${event.id}, 1, ${url}, ${startedAt}, ${new Date(startedAt.getTime() + 86_400_000)})`
    yield* sql`INSERT INTO delivery_attempts (event_id, round, attempt, url, started_at) VALUES (${event.id}, 1, 1, ${url}, ${startedAt})`
    return event
  }).pipe(Effect.orDie)

/** An event whose round started over a day ago with one failed attempt, due again only now. */
const seedPastDeadline = (scope: SeededScope, url: string, startedAt: Date) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const event = yield* seedEvent(scope, startedAt)
    yield* sql`
      UPDATE events SET attempts = 1, status = 'pending', round_url = ${url}, round_started_at = ${startedAt},
             last_error = 'HTTP 500: expected 200', next_attempt = ${new Date(startedAt.getTime() + 10_000)}
      WHERE id = ${event.id}`
    yield* sql`
      INSERT INTO delivery_rounds (event_id, round, url, started_at, deadline_at)
      VALUES (${event.id}, 1, ${url}, ${startedAt}, ${new Date(startedAt.getTime() + 86_400_000)})`
    yield* sql`
      INSERT INTO delivery_attempts (event_id, round, attempt, url, started_at, ended_at, duration_ms, http_status, error, outcome)
      VALUES (${event.id}, 1, 1, ${url}, ${startedAt}, ${startedAt}, 5, 500, 'HTTP 500: expected 200', 'failed')`
    return event
  }).pipe(Effect.orDie)

layer(TestDatabaseLive, { timeout: 120_000, excludeTestServices: true })("Dispatcher bookkeeping in batches", (it) => {
  it.scoped("a batch with mixed outcomes records each attempt exactly once, started by the claim and closed in few writes", () =>
    Effect.gen(function*() {
      yield* parkOtherEvents
      const receiver = yield* startTestReceiver(Ack)
      yield* receiver.answer(ServerError, "/error")
      const now = new Date()
      const ok = yield* seedScope({ url: receiver.url("/ok"), enabled: true })
      const failing = yield* seedScope({ url: receiver.url("/error"), enabled: true })
      const disabled = yield* seedScope({ url: receiver.url("/disabled"), enabled: false })
      const delivered = yield* Effect.forEach([1, 2, 3, 4, 5], () => seedEvent(ok, now))
      const refused = yield* Effect.forEach([1, 2, 3], () => seedEvent(failing, now))
      const off = yield* seedEvent(disabled, now)
      const dead = yield* seedOpenAttempt(ok, receiver.url("/ok"), new Date(now.getTime() - 30_000))
      const late = yield* seedPastDeadline(failing, receiver.url("/error"), new Date(now.getTime() - 25 * 3_600_000))
      const { calls, wrap } = recordingLedger()
      expect(yield* dispatchOnce({ ledger: wrap, settings: { perTenant: 10 } })).toBe(11)

      // One statement claimed the eleven events and started the eight attempts (and their rounds).
      expect(calls.claims).toEqual([{ claimed: 11, started: 8 }])
      // Each attempt closed once across all outcome writes (the dead worker's one included).
      const written = calls.finishAttempts.flat().map((f) => `${f.claim.eventId}/${f.claim.round}/${f.attempt}`)
      expect(written).toHaveLength(9)
      expect(new Set(written).size).toBe(9)
      expect(calls.finishAttempts.length).toBeLessThanOrEqual(9)

      for (const event of delivered) {
        expect(yield* eventRow(event.id)).toMatchObject({ status: "delivered", attempts: 1, claimed_by: null })
        expect(yield* attemptRows(event.id)).toMatchObject([{ attempt: 1, outcome: "delivered", http_status: 200 }])
        expect(yield* roundRows(event.id)).toMatchObject([{ round: 1, url: receiver.url("/ok"), outcome: "delivered" }])
      }
      for (const event of refused) {
        expect(yield* eventRow(event.id)).toMatchObject({ status: "pending", attempts: 1, last_error: "HTTP 500: expected 200", claimed_by: null })
        expect(yield* attemptRows(event.id)).toMatchObject([{ attempt: 1, outcome: "failed", http_status: 500 }])
        expect(yield* roundRows(event.id)).toMatchObject([{ round: 1, outcome: null }])
      }
      expect(yield* eventRow(off.id)).toMatchObject({ status: "failed", attempts: 0, last_error: "webhook delivery is disabled" })
      expect(yield* attemptRows(off.id)).toEqual([])
      // The dead worker's attempt is closed as interrupted, nothing is sent for it now, and the next one is scheduled.
      const deadRow = yield* eventRow(dead.id)
      expect(deadRow).toMatchObject({ status: "pending", attempts: 1, last_error: interrupted, claimed_by: null })
      expect(deadRow.next_attempt!.getTime()).toBeGreaterThan(now.getTime() - 30_000)
      expect(yield* attemptRows(dead.id)).toMatchObject([{ attempt: 1, outcome: "failed", http_status: null, error: interrupted }])
      // A round past its deadline ends without another attempt.
      expect(yield* eventRow(late.id)).toMatchObject({ status: "failed", attempts: 1, last_error: "round deadline reached; last error: HTTP 500: expected 200" })
      expect(yield* attemptRows(late.id)).toHaveLength(1)

      expect(receiver.receivedAt("/ok")).toHaveLength(5)
      expect(receiver.receivedAt("/error")).toHaveLength(3)
      const sql = yield* SqlClient.SqlClient
      const [open] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM delivery_attempts WHERE ended_at IS NULL`
      expect(open!.n).toBe(0)
    }))

  it.scoped("the groups of one claim (one per tenant and URL) are marked sending in one statement, and only then sent", () =>
    Effect.gen(function*() {
      yield* parkOtherEvents
      const receiver = yield* startTestReceiver(Ack)
      const now = new Date()
      // Four tenants, two of them on the same URL, three events each: four groups in one claim.
      const scopes = yield* Effect.forEach(["/a", "/b", "/c", "/c"], (path) => seedScope({ url: receiver.url(path), enabled: true }))
      const events = (yield* Effect.forEach(scopes, (scope) => Effect.forEach([1, 2, 3], () => seedEvent(scope, now)))).flat()
      const marks: Array<ReadonlyArray<string>> = []
      let receivedAtMark = -1
      const counting = (ledger: Notifications.DeliveryLedger["Type"]): Notifications.DeliveryLedger["Type"] => ({
        ...ledger,
        markSending: (attempts, at) =>
          Effect.tap(ledger.markSending(attempts, at), () =>
            Effect.sync(() => {
              marks.push(attempts.map((a) => a.claim.eventId))
              receivedAtMark = receiver.received().length
            }))
      })
      expect(yield* dispatchOnce({ ledger: counting, settings: { perTenant: 10 } })).toBe(12)
      // One statement for the four groups, before any request went out.
      expect(marks).toHaveLength(1)
      expect([...marks[0]!].sort()).toEqual(events.map((e) => e.id).sort())
      expect(receivedAtMark).toBe(0)
      expect(receiver.received()).toHaveLength(12)
      for (const event of events) {
        expect(yield* eventRow(event.id)).toMatchObject({ status: "delivered", attempts: 1, claimed_by: null })
        expect((yield* attemptRows(event.id))[0]).toMatchObject({ attempt: 1, outcome: "delivered" })
      }
    }))

  it.scoped("a claim lost before the shared mark: that group's attempts are not sent, the other groups' are", () =>
    Effect.gen(function*() {
      yield* parkOtherEvents
      const receiver = yield* startTestReceiver(Ack)
      const now = new Date()
      const kept = yield* seedScope({ url: receiver.url("/kept"), enabled: true })
      const lost = yield* seedScope({ url: receiver.url("/lost"), enabled: true })
      const keptEvents = yield* Effect.forEach([1, 2], () => seedEvent(kept, now))
      const lostEvents = yield* Effect.forEach([1, 2], () => seedEvent(lost, now))
      const sql = yield* SqlClient.SqlClient
      let statements = 0
      // Another dispatcher takes /lost's events over just before the mark is written.
      const takeover = (ledger: Notifications.DeliveryLedger["Type"]): Notifications.DeliveryLedger["Type"] => ({
        ...ledger,
        markSending: (attempts, at) =>
          Effect.zipRight(
            Effect.orDie(sql`UPDATE events SET claimed_by = 'other' WHERE id IN ${sql.in(lostEvents.map((e) => e.id))}`),
            Effect.suspend(() => {
              statements++
              return ledger.markSending(attempts, at)
            })
          )
      })
      expect(yield* dispatchOnce({ ledger: takeover, settings: { perTenant: 10 } })).toBe(4)
      expect(statements).toBe(1)
      expect(receiver.receivedAt("/kept")).toHaveLength(2)
      expect(receiver.receivedAt("/lost")).toHaveLength(0)
      for (const event of keptEvents) expect(yield* attemptRows(event.id)).toMatchObject([{ attempt: 1, outcome: "delivered" }])
      // Left open, unmarked, for the dispatcher that holds them now.
      for (const event of lostEvents) {
        expect(yield* eventRow(event.id)).toMatchObject({ claimed_by: "other", attempts: 1 })
        expect(yield* attemptRows(event.id)).toMatchObject([{ attempt: 1, ended_at: null }])
      }
    }))

  it.scoped("an outcome write that fails loses nothing: the outcomes are written again and each is recorded once", () =>
    Effect.gen(function*() {
      yield* parkOtherEvents
      const receiver = yield* startTestReceiver(Ack)
      yield* receiver.answer(ServerError, "/error")
      const now = new Date()
      const ok = yield* seedScope({ url: receiver.url("/ok"), enabled: true })
      const failing = yield* seedScope({ url: receiver.url("/error"), enabled: true })
      const events = [
        ...(yield* Effect.forEach([1, 2, 3, 4], () => seedEvent(ok, now))),
        ...(yield* Effect.forEach([1, 2], () => seedEvent(failing, now)))
      ]
      // The first write fails before it reaches the database; the second is committed but its
      // answer is lost (the connection dropped after the commit); the writes after that succeed.
      let writes = 0
      const items: Array<string> = []
      const breaking = (ledger: Notifications.DeliveryLedger["Type"]): Notifications.DeliveryLedger["Type"] => ({
        ...ledger,
        finishAttempts: (finishes) =>
          Effect.suspend(() => {
            writes++
            if (writes === 1) return Effect.die(new Error("connection refused"))
            const write = Effect.zipRight(ledger.finishAttempts(finishes), Effect.sync(() => items.push(...finishes.map((f) => f.claim.eventId))))
            return writes === 2 ? Effect.zipRight(write, Effect.die(new Error("connection lost after commit"))) : write
          })
      })
      expect(yield* dispatchOnce({ ledger: breaking, settings: { perTenant: 10, outcomeRetry: Duration.millis(20) } })).toBe(6)
      expect(writes).toBeGreaterThanOrEqual(3)
      // Every outcome reached the database.
      expect(new Set(items)).toEqual(new Set(events.map((e) => e.id)))
      for (const event of events.slice(0, 4)) {
        expect(yield* eventRow(event.id)).toMatchObject({ status: "delivered", attempts: 1, claimed_by: null })
        expect(yield* attemptRows(event.id)).toMatchObject([{ attempt: 1, outcome: "delivered", http_status: 200, error: "" }])
      }
      for (const event of events.slice(4)) {
        const row = yield* eventRow(event.id)
        expect(row).toMatchObject({ status: "pending", attempts: 1, last_error: "HTTP 500: expected 200", claimed_by: null })
        expect(yield* attemptRows(event.id)).toMatchObject([{ attempt: 1, outcome: "failed", http_status: 500 }])
      }
      expect(receiver.received()).toHaveLength(6)
    }))

  it.scoped("writing the same outcomes twice changes nothing the second time", () =>
    Effect.gen(function*() {
      yield* parkOtherEvents
      const scope = yield* seedScope({ url: "https://127.0.0.1/none", enabled: true })
      const now = new Date()
      yield* Effect.forEach([1, 2, 3], () => seedEvent(scope, now))
      const ledger = yield* Notifications.DeliveryLedger
      const claimed = yield* ledger.claimDue(claimRequest(holder, now, 10, 10))
      expect(claimed).toHaveLength(3)
      expect(claimed.every((e) => e.started?.attempt === 1)).toBe(true)
      const record = (error: string, delivered: boolean) => ({ endedAt: new Date(now.getTime() + 5), durationMs: 5, httpStatus: delivered ? 200 : 500, responseExcerpt: "", error, delivered })
      const finishes: Array<Notifications.AttemptFinish> = [
        { claim: Notifications.claimOf(holder, claimed[0]!), attempt: 1, record: record("", true), next: { _tag: "Delivered" } },
        { claim: Notifications.claimOf(holder, claimed[1]!), attempt: 1, record: record("HTTP 500: expected 200", false), next: { _tag: "Retry", at: new Date(now.getTime() + 10_000) } },
        { claim: Notifications.claimOf(holder, claimed[2]!), attempt: 1, record: record("HTTP 500: expected 200", false), next: { _tag: "RoundFailed", reason: "gave up" } }
      ]
      yield* ledger.finishAttempts(finishes)
      const after = yield* Effect.forEach(claimed, (e) => Effect.all([eventRow(e.eventId), attemptRows(e.eventId), roundRows(e.eventId)]))
      // Again, and again with other outcomes: the first write stands.
      yield* ledger.finishAttempts(finishes)
      yield* ledger.finishAttempts(finishes.map((f) => ({ ...f, record: record("other", false), next: { _tag: "RoundFailed", reason: "other" } as const })))
      expect(yield* Effect.forEach(claimed, (e) => Effect.all([eventRow(e.eventId), attemptRows(e.eventId), roundRows(e.eventId)]))).toEqual(after)
      expect(after.map(([row]) => row.status)).toEqual(["delivered", "pending", "failed"])
      expect(after.map(([, , rounds]) => rounds[0]!.outcome)).toEqual(["delivered", null, "failed"])
    }).pipe(Effect.provide(PgDeliveryLedger.layer)))

  it.scoped("the claim takes each tenant's first due events in turn and counts what the dispatcher holds", () =>
    Effect.gen(function*() {
      yield* parkOtherEvents
      const a = yield* seedScope({ url: "https://127.0.0.1/a", enabled: true })
      const b = yield* seedScope({ url: "https://127.0.0.1/b", enabled: true })
      const now = new Date()
      // Tenant a has ten due events (and one not yet due), b has three; a's are older.
      const aEvents = yield* Effect.forEach(Array.from({ length: 10 }, (_, i) => i), (i) => seedEvent(a, new Date(now.getTime() - 60_000 + i)))
      yield* seedEvent(a, new Date(now.getTime() + 60_000))
      const bEvents = yield* Effect.forEach([0, 1, 2], (i) => seedEvent(b, new Date(now.getTime() - 1_000 + i)))
      const ledger = yield* Notifications.DeliveryLedger
      const claim = (who: string, limit: number, held: ReadonlyMap<string, number> = new Map()) =>
        Effect.map(ledger.claimDue(claimRequest(who, now, limit, 4, held)), (events) => events.map((e) => e.eventId).sort())
      // Round robin: both tenants' first three, not a's six oldest.
      expect(yield* claim("x", 6)).toEqual([...aEvents.slice(0, 3), ...bEvents].map((e) => e.id).sort())
      // x holds three of a's events, of its four: one more; b has none left due.
      expect(yield* claim("x", 10, new Map([[a.tenantId, 3], [b.tenantId, 3]]))).toEqual([aEvents[3]!.id])
      expect(yield* claim("x", 10, new Map([[a.tenantId, 4], [b.tenantId, 3]]))).toEqual([])
      // Another dispatcher has its own share of a: the next four, never those x holds.
      expect(yield* claim("y", 10)).toEqual(aEvents.slice(4, 8).map((e) => e.id).sort())
      // A lease that ran out holds the event no more: it can be claimed again.
      const later = new Date(now.getTime() + 61_000)
      const retaken = yield* ledger.claimDue(claimRequest("w", later, 20, 8))
      expect(retaken.map((e) => e.eventId).sort()).toEqual([...aEvents.slice(0, 8), ...bEvents].map((e) => e.id).sort())
      // Their first attempts are still open (nobody sent them): taken over to be closed, not started again.
      expect(retaken.every((e) => e.started === null && e.openAttempt?.attempt === 1)).toBe(true)
    }).pipe(Effect.provide(PgDeliveryLedger.layer)))
})
