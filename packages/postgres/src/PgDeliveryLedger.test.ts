import { type Claim, type ClaimRequest, claimOf, DeliveryLedger, type DueEvent } from "@collector/core"
import { SqlClient } from "@effect/sql"
import { expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { randomBytes } from "node:crypto"
import * as PgDeliveryLedger from "./PgDeliveryLedger"
import { type AttemptSeed, type EventScope, type EventSeed, seedAttempt, seedEvent, seedRound } from "./testing/SeedEvents"
import { TestDatabaseLive } from "./testing/TestDatabase"

// Each test gets its own database: a claim reads a whole network.
const withDatabase = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.provide(effect, PgDeliveryLedger.layer.pipe(Layer.provideMerge(TestDatabaseLive)))

const url = "https://hooks.example.com/in"
const at = (seconds: number) => new Date(Date.UTC(2026, 1, 1) + seconds * 1000)
const leaseSeconds = 60

/** A tenant whose webhook is enabled on nile. */
const newScope = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [tenant] = yield* sql<{ id: string }>`INSERT INTO tenants (name) VALUES (${`t-${randomBytes(4).toString("hex")}`}) RETURNING id::text`
  yield* sql`
    INSERT INTO tenant_settings (tenant_id, network, webhook_url, webhook_enabled, webhook_updated_at)
    VALUES (${tenant!.id}, 'nile', ${url}, true, now())`
  return { tenantId: tenant!.id, network: "nile" } satisfies EventScope
}).pipe(Effect.orDie)

const request = (holder: string, now: Date): ClaimRequest => ({
  network: "nile",
  now,
  holder,
  leaseUntil: new Date(now.getTime() + leaseSeconds * 1000),
  limit: 10,
  perTenant: 10,
  held: new Map(),
  maxAttempts: 20,
  roundDeadline: new Date(now.getTime() + 86_400_000)
})

/** Claims what is due for `holder` at `now`, by event ID. */
const claim = (holder: string, now: Date) =>
  Effect.flatMap(DeliveryLedger, (ledger) => ledger.claimDue(request(holder, now))).pipe(
    Effect.map((events) => new Map(events.map((event) => [event.eventId, event])))
  )

/** The attempt a claim started (or found open) on `event`. */
const heldBy = (holder: string, event: DueEvent): { readonly claim: Claim; readonly attempt: number } => ({
  claim: claimOf(holder, event),
  attempt: event.started?.attempt ?? event.openAttempt!.attempt
})

const eventRow = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{
      status: string
      attempts: number
      next_attempt: Date | null
      round_url: string | null
      round_started_at: Date | null
      deadline_at: Date
      claimed_by: string | null
      claimed_until: Date | null
    }>`
      SELECT status, attempts, next_attempt, round_url, round_started_at, deadline_at, claimed_by, claimed_until
      FROM events WHERE id = ${id}`).pipe(Effect.orDie, Effect.map(([row]) => row!))

const attemptRows = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ round: number; attempt: number; ended_at: Date | null; sent_at: Date | null }>`
      SELECT round, attempt, ended_at, sent_at FROM delivery_attempts WHERE event_id = ${id} ORDER BY round, attempt`).pipe(Effect.orDie)

const roundRows = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ round: number; url: string; started_at: Date; ended_at: Date | null }>`
      SELECT round, url, started_at, ended_at FROM delivery_rounds WHERE event_id = ${id} ORDER BY round`).pipe(Effect.orDie)

/** Everything the ledger keeps of an event. */
const stateOf = (id: string) => Effect.all({ event: eventRow(id), attempts: attemptRows(id), rounds: roundRows(id) })

/** An event whose round 1 started at `at(0)` with attempt 1, open unless `attempt` ends it. */
const seedRoundStarted = (scope: EventScope, event: EventSeed, attempt: Partial<AttemptSeed> = {}) =>
  Effect.gen(function*() {
    const startedAt = at(0).toISOString()
    const id = yield* seedEvent(scope, { attempts: 1, createdAt: startedAt, roundUrl: url, roundStartedAt: startedAt, ...event })
    yield* seedRound(id, { round: 1, url, startedAt })
    yield* seedAttempt(id, { round: 1, attempt: 1, url, startedAt, ...attempt })
    return id
  })

/** Attempt 1 failed; attempt 2 due at `at(10)`. */
const seedSecondAttemptDue = (scope: EventScope) =>
  seedRoundStarted(
    scope,
    { nextAttempt: at(10).toISOString(), lastError: "HTTP 500: expected 200" },
    { endedAt: at(0).toISOString(), outcome: "failed", error: "HTTP 500: expected 200" }
  )

it.scoped("markSending: marks the open attempts whose claim is held and unexpired, and only those", () =>
  withDatabase(Effect.gen(function*() {
    const ledger = yield* DeliveryLedger
    const scope = yield* newScope
    const [held, takenOver, expired] = yield* Effect.forEach([1, 2, 3], () => seedEvent(scope, { createdAt: at(0).toISOString() }))
    const claimed = yield* claim("a", at(1))
    expect([...claimed.values()].map((e) => e.started?.attempt)).toEqual([1, 1, 1])
    // The claim records each attempt's start, not its sending.
    expect((yield* attemptRows(held!))[0]!.sent_at).toBeNull()
    // takenOver: a's lease ran out and b claimed it; its attempt, never sent, is open.
    yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE events SET claimed_until = ${at(2)} WHERE id = ${takenOver!}`).pipe(Effect.orDie)
    expect((yield* claim("b", at(3))).get(takenOver!)?.openAttempt).toEqual({ attempt: 1, startedAt: at(1), sent: false })

    const attempts = [held!, takenOver!, expired!].map((id) => heldBy("a", claimed.get(id)!))
    // A wrong attempt number is not the open attempt: not marked either.
    const marked = yield* ledger.markSending([...attempts.slice(0, 2), { ...attempts[0]!, attempt: 2 }], at(4))
    expect(marked).toEqual([held!])
    // expired: its lease (until at(61)) ran out by the time the mark is asked for.
    expect(yield* ledger.markSending([attempts[2]!], at(leaseSeconds + 2))).toEqual([])
    expect(yield* attemptRows(held!)).toEqual([{ round: 1, attempt: 1, ended_at: null, sent_at: at(4) }])
    expect((yield* attemptRows(takenOver!))[0]!.sent_at).toBeNull()
    expect((yield* attemptRows(expired!))[0]!.sent_at).toBeNull()
  })))

it.scoped("claimDue: an open attempt comes back marked sent or not; one written without the mark counts as sent", () =>
  withDatabase(Effect.gen(function*() {
    const ledger = yield* DeliveryLedger
    const scope = yield* newScope
    const [sent, unsent] = yield* Effect.forEach([1, 2], () => seedEvent(scope, { createdAt: at(0).toISOString() }))
    const claimed = yield* claim("a", at(1))
    yield* ledger.markSending([heldBy("a", claimed.get(sent!)!)], at(2))
    // A worker of the previous version records an attempt without the mark: it may have sent it.
    const legacy = yield* seedRoundStarted(scope, { status: "delivering", claimedBy: "old-worker", claimedUntil: at(60).toISOString() })

    const takenOver = yield* claim("b", at(leaseSeconds + 2))
    expect(takenOver.get(sent!)).toMatchObject({ started: null, openAttempt: { attempt: 1, startedAt: at(1), sent: true } })
    expect(takenOver.get(unsent!)).toMatchObject({ started: null, openAttempt: { attempt: 1, startedAt: at(1), sent: false } })
    expect(takenOver.get(legacy)).toMatchObject({ started: null, openAttempt: { attempt: 1, startedAt: at(0), sent: true } })
  })))

it.scoped("withdrawAttempts: an unsent attempt is taken back, counted out, still due, its claim released; again changes nothing", () =>
  withDatabase(Effect.gen(function*() {
    const ledger = yield* DeliveryLedger
    const scope = yield* newScope
    const first = yield* seedEvent(scope, { createdAt: at(0).toISOString() })
    const second = yield* seedSecondAttemptDue(scope)
    const sent = yield* seedEvent(scope, { createdAt: at(0).toISOString() })
    const before = yield* eventRow(second)
    const claimed = yield* claim("a", at(11))
    expect([first, second, sent].map((id) => claimed.get(id)?.started?.attempt)).toEqual([1, 2, 1])
    const attempts = [first, second, sent].map((id) => heldBy("a", claimed.get(id)!))
    yield* ledger.markSending([attempts[2]!], at(12))
    const sentState = yield* stateOf(sent)

    expect([...yield* ledger.withdrawAttempts(attempts)].sort()).toEqual([first, second].sort())

    // Attempt 1 of a new round: the round stays started (URL, start, deadline, row) from its first start.
    expect(yield* eventRow(first)).toEqual({
      status: "pending",
      attempts: 0,
      next_attempt: at(0),
      round_url: url,
      round_started_at: at(11),
      deadline_at: new Date(at(11).getTime() + 86_400_000),
      claimed_by: null,
      claimed_until: null
    })
    expect(yield* attemptRows(first)).toEqual([])
    expect(yield* roundRows(first)).toEqual([{ round: 1, url, started_at: at(11), ended_at: null }])
    // Attempt 2: the count goes back to 1 and the schedule stays where it was (due at at(10)).
    expect(yield* eventRow(second)).toEqual({ ...before, status: "pending", attempts: 1, claimed_by: null, claimed_until: null })
    expect((yield* attemptRows(second)).map((a) => a.attempt)).toEqual([1])
    // An attempt marked sending is not taken back: it may have reached the receiver.
    expect(yield* stateOf(sent)).toEqual(sentState)

    // Again: nothing is withdrawn twice.
    const after = yield* Effect.forEach([first, second, sent], stateOf)
    expect(yield* ledger.withdrawAttempts(attempts)).toEqual([])
    expect(yield* Effect.forEach([first, second, sent], stateOf)).toEqual(after)

    // Due at once: the next claim starts the same attempts again, in the same round.
    const again = yield* claim("b", at(13))
    expect(again.get(first)?.started).toEqual({ attempt: 1, url, startedAt: at(13) })
    expect(again.get(second)?.started).toEqual({ attempt: 2, url, startedAt: at(13) })
    expect(again.has(sent)).toBe(false)
    expect(yield* roundRows(first)).toEqual([{ round: 1, url, started_at: at(11), ended_at: null }])
  })))

it.scoped("withdrawAttempts: a holder that lost its claim withdraws nothing; the new holder withdraws", () =>
  withDatabase(Effect.gen(function*() {
    const ledger = yield* DeliveryLedger
    const scope = yield* newScope
    const id = yield* seedEvent(scope, { createdAt: at(0).toISOString() })
    const mine = heldBy("a", (yield* claim("a", at(1))).get(id)!)
    const later = at(leaseSeconds + 2)
    const theirs = heldBy("b", (yield* claim("b", later)).get(id)!)
    const taken = yield* stateOf(id)
    expect(yield* ledger.withdrawAttempts([mine])).toEqual([])
    expect(yield* stateOf(id)).toEqual(taken)
    expect(yield* ledger.withdrawAttempts([theirs])).toEqual([id])
    expect(yield* eventRow(id)).toMatchObject({ status: "pending", attempts: 0, next_attempt: at(0), claimed_by: null })
    expect(yield* attemptRows(id)).toEqual([])
  })))
