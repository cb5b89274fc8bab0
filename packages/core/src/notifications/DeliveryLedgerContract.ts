import { SettingsRepository } from "../settings/SettingsRepository.js"
import { describe, expect } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import type { EventId } from "../deposits/Deposit.js"
import type { TenantId } from "../kernel/Ids.js"
import { claimOf, DeliveryLedger, type NextStep } from "./DeliveryLedger.js"
import { roundDeadline } from "./DeliverySchedule.js"
import { NotificationRepository } from "./NotificationRepository.js"
import { DepositBook } from "../scanning/DepositBook.js"
import type { TenantScope } from "../tenants/Scope.js"
import { attemptsOf, claimed, claimRequest, eventOf, finished, heldBy, recordOf, roundsOf, stateOf } from "./DeliverySteps.js"
import { outboxEvent, webhookScope } from "../testing/OutboxEvents.js"
import { onFreshStorage } from "../testing/FreshStorage.js"
import { StorageFixtures } from "../testing/StorageFixtures.js"

type Ports = DeliveryLedger | NotificationRepository | DepositBook | SettingsRepository | StorageFixtures

const url = "https://hooks.example.com/in"
const at = (seconds: number) => new Date(Date.UTC(2026, 1, 1) + seconds * 1000)
const leaseSeconds = 60

const sorted = (ids: Iterable<string>) => [...ids].sort()

/** A scope whose webhook is enabled on nile. */
const enabledScope = webhookScope("nile", { url, enabled: true })

/**
 * Draws event IDs until the next one is all nines (a few draws in a new store), so that the one
 * after it has a digit more and sorts before it as text.
 */
const drawUntilLastOfDigits = Effect.gen(function*() {
  const book = yield* DepositBook
  for (let i = 0; i < 20; i++) {
    const [id] = (yield* book.reserveIds({ deposits: 0, events: 1 })).events
    if (/^9+$/.test(String(BigInt(id!) + 1n))) return
  }
})

const retry = (seconds: number): NextStep => ({ _tag: "Retry", at: at(seconds) })

/**
 * What every DeliveryLedger must do: claims that start each attempt before anything is sent,
 * fairly across tenants and never twice, and writes after the claim that move an event only
 * while its claim is held. Each test gets a storage of its own (`storage` is built per test),
 * since a claim reads every event of a network. The state is read back through the
 * NotificationRepository, and whether a claim is held by claiming again.
 */
export const deliveryLedgerContract = <E>(name: string, storage: Layer.Layer<Ports, E>) =>
  describe(`DeliveryLedger contract (${name})`, () => {
    const test = onFreshStorage(storage)

    test("claimDue starts a new round with the URL configured now and records its first attempt, before anything is sent", () =>
      Effect.gen(function*() {
        const scope = yield* enabledScope
        const event = yield* outboxEvent(scope, at(0), { eventType: "deposit.confirmed" })
        const due = (yield* claimed("a", at(1))).get(event.id)
        expect(due).toEqual({
          eventId: event.id,
          tenantId: scope.tenantId,
          network: "nile",
          eventType: "deposit.confirmed",
          payload: event.payload,
          round: 1,
          attempts: 1,
          roundUrl: url,
          roundStartedAt: at(1),
          deadlineAt: roundDeadline(at(1)),
          lastError: "",
          // The app's sealed webhook key as the fixture stored it.
          app: { appId: scope.appId, webhookKey: { keyId: "fixture", blob: new Uint8Array([1, 2, 3]) } },
          openAttempt: null,
          webhook: null,
          started: { attempt: 1, url, startedAt: at(1) }
        })
        expect(yield* stateOf(scope, event.id)).toEqual({
          event: expect.objectContaining({ status: "delivering", attempts: 1, currentRound: 1, nextAttempt: at(0), deadlineAt: roundDeadline(at(1)) }),
          attempts: [{ round: 1, attempt: 1, url, startedAt: at(1), endedAt: null, durationMs: null, httpStatus: null, responseExcerpt: "", error: "", outcome: null }],
          rounds: [{ round: 1, url, startedAt: at(1), deadlineAt: roundDeadline(at(1)), endedAt: null, outcome: null, reason: "" }]
        })
        // The round keeps its URL to its end: a new configuration is not read again.
        yield* Effect.flatMap(SettingsRepository, (settings) => settings.setWebhook(scope, { url: "https://hooks.example.com/new", enabled: true }))
        yield* finished("a", due!, at(2), retry(11))
        expect((yield* claimed("a", at(11))).get(event.id)?.started).toEqual({ attempt: 2, url, startedAt: at(11) })
      }))

    test("claimDue takes the network's open events due by now and not claimed by a live lease; a lease that ran out is taken over", () =>
      Effect.gen(function*() {
        const scope = yield* enabledScope
        const main = yield* webhookScope("main", { url, enabled: true })
        const due = yield* outboxEvent(scope, at(0))
        const dueNow = yield* outboxEvent(scope, at(5))
        const later = yield* outboxEvent(scope, at(5.001))
        yield* outboxEvent(main, at(0))
        expect(sorted((yield* claimed("a", at(5))).keys())).toEqual(sorted([due.id, dueNow.id]))
        // Held by a until at(65): nobody else takes them, a itself neither.
        expect(sorted((yield* claimed("b", at(6))).keys())).toEqual([later.id])
        expect([...(yield* claimed("a", at(64.999))).keys()]).toEqual([])
        // From the lease's end on, they may be taken over.
        const taken = yield* claimed("c", at(65))
        expect(sorted(taken.keys())).toEqual(sorted([due.id, dueNow.id]))
        // A finished event is no longer open: it is never claimed again.
        yield* finished("c", taken.get(due.id)!, at(66), { _tag: "Delivered" })
        expect(sorted((yield* claimed("d", at(1000))).keys())).toEqual(sorted([dueNow.id, later.id]))
        expect((yield* claimed("a", at(1000), { network: "main" })).size).toBe(1)
      }))

    test("claimDue takes every tenant's first due events before anyone's next, up to the share this dispatcher holds", () =>
      Effect.gen(function*() {
        const a = yield* enabledScope
        const b = yield* enabledScope
        // a has ten due events (and one not yet due), b has three; a's are older.
        const aEvents = yield* Effect.forEach(Array.from({ length: 10 }, (_, i) => i), (i) => outboxEvent(a, at(i / 1000)))
        yield* outboxEvent(a, at(120))
        const bEvents = yield* Effect.forEach([0, 1, 2], (i) => outboxEvent(b, at(59 + i / 1000)))
        const now = at(60)
        const claim = (who: string, limit: number, held: ReadonlyMap<TenantId, number> = new Map()) =>
          Effect.map(claimed(who, now, { limit, perTenant: 4, held }), (events) => sorted(events.keys()))
        const ids = (events: ReadonlyArray<{ readonly id: EventId }>) => sorted(events.map((e) => e.id))
        // Both tenants' first three, not a's six oldest.
        expect(yield* claim("x", 6)).toEqual(ids([...aEvents.slice(0, 3), ...bEvents]))
        // x holds three of a's four: one more; b has none left due.
        expect(yield* claim("x", 10, new Map([[a.tenantId, 3], [b.tenantId, 3]]))).toEqual(ids([aEvents[3]!]))
        expect(yield* claim("x", 10, new Map([[a.tenantId, 4], [b.tenantId, 3]]))).toEqual([])
        // Another dispatcher has its own share of a: the next four, never those x holds.
        expect(yield* claim("y", 10)).toEqual(ids(aEvents.slice(4, 8)))
        // Past the leases: the oldest eight of a (perTenant 8) and b's three.
        const retaken = yield* claimed("w", at(121), { limit: 20, perTenant: 8 })
        expect(sorted(retaken.keys())).toEqual(ids([...aEvents.slice(0, 8), ...bEvents]))
        // Their first attempts are still open (nobody sent them): taken over to be settled, not started again.
        expect([...retaken.values()].every((e) => e.started === null && e.openAttempt?.attempt === 1 && e.openAttempt.sent === false)).toBe(true)
      }))

    test("claimDue orders within a tenant by due time, then ID; the limit takes the best ranked", () =>
      Effect.gen(function*() {
        const scope = yield* enabledScope
        const other = yield* enabledScope
        // Written in this order: IDs ascending, due times not.
        const late = yield* outboxEvent(scope, at(3))
        const early = yield* outboxEvent(scope, at(1))
        // The tie is broken by ID as a number: the second has one digit more (in a new store).
        yield* drawUntilLastOfDigits
        const tiedFirst = yield* outboxEvent(scope, at(2))
        const tiedSecond = yield* outboxEvent(scope, at(2))
        const others = yield* outboxEvent(other, at(4))
        expect(sorted((yield* claimed("a", at(10), { limit: 2 })).keys())).toEqual(sorted([early.id, others.id]))
        expect(sorted((yield* claimed("b", at(10), { limit: 1 })).keys())).toEqual([tiedFirst.id])
        expect(sorted((yield* claimed("c", at(10), { limit: 1 })).keys())).toEqual([tiedSecond.id])
        expect(sorted((yield* claimed("d", at(10), { limit: 0 })).keys())).toEqual([])
        expect(sorted((yield* claimed("d", at(10), { limit: 5 })).keys())).toEqual([late.id])
      }))

    // The dispatcher launches (and so sends) in the order returned: a store must not hand them
    // back in the order its rows happen to lie in (here, the reverse of the claim order).
    test("claimDue returns the events in claim order: by rank, then due time, then ID", () =>
      Effect.gen(function*() {
        const a = yield* enabledScope
        const b = yield* enabledScope
        const bLate = yield* outboxEvent(b, at(2))
        const bEarly = yield* outboxEvent(b, at(1))
        const aLate = yield* outboxEvent(a, at(3))
        const aEarly = yield* outboxEvent(a, at(0))
        // Claimed and released, so that its row is written again (after the others, in PostgreSQL's heap).
        const moved = yield* claimed("x", at(0))
        yield* Effect.flatMap(DeliveryLedger, (ledger) => ledger.release([claimOf("x", moved.get(aEarly.id)!)]))
        const order = yield* Effect.flatMap(DeliveryLedger, (ledger) => ledger.claimDue(claimRequest("y", at(100), {})))
        // Each tenant's first (a's due at 0, b's at 1), then each one's second (b's at 2, a's at 3).
        expect(order.map((e) => e.eventId)).toEqual([aEarly.id, bEarly.id, bLate.id, aLate.id])
      }))

    test("a new round without a usable configuration is claimed without an attempt, with the configuration read; failNewRound ends it", () =>
      Effect.gen(function*() {
        const ledger = yield* DeliveryLedger
        const disabled = yield* webhookScope("nile", { url, enabled: false })
        const empty = yield* webhookScope("nile", { url: "", enabled: true })
        const unset = yield* webhookScope("nile", null)
        // No app on main for this tenant: the claim says so.
        const appless: TenantScope = { tenantId: unset.tenantId, network: "main" }
        yield* Effect.flatMap(SettingsRepository, (settings) => settings.setWebhook(appless, { url, enabled: true }))
        const events = yield* Effect.forEach([disabled, empty, unset], (scope) => outboxEvent(scope, at(0)))
        const applessEvent = yield* outboxEvent(appless, at(0))
        const got = yield* claimed("a", at(1))
        expect(events.map((e) => got.get(e.id)).map((e) => [e?.started, e?.openAttempt, e?.roundUrl, e?.webhook, e?.attempts])).toEqual([
          [null, null, null, { url, enabled: false }, 0],
          [null, null, null, { url: "", enabled: true }, 0],
          [null, null, null, { url: "", enabled: false }, 0]
        ])
        expect(got.get(events[0]!.id)?.app?.appId).toBe(disabled.appId)
        expect((yield* claimed("a", at(1), { network: "main" })).get(applessEvent.id)).toMatchObject({ app: null, started: { attempt: 1, url } })
        // Nothing was started: no attempt, and the round has no row yet.
        expect(yield* attemptsOf(disabled, events[0]!.id)).toEqual([])
        expect((yield* roundsOf(disabled, events[0]!.id))[0]!.url).toBe("")

        const reason = "webhook delivery is disabled"
        // Only under the claim: another holder changes nothing.
        yield* ledger.failNewRound(claimOf("b", got.get(events[0]!.id)!), { at: at(2), deadlineAt: roundDeadline(at(2)), reason })
        expect((yield* eventOf(disabled, events[0]!.id)).status).toBe("pending")
        yield* ledger.failNewRound(claimOf("a", got.get(events[0]!.id)!), { at: at(2), deadlineAt: roundDeadline(at(2)), reason })
        expect(yield* stateOf(disabled, events[0]!.id)).toEqual({
          event: expect.objectContaining({ status: "failed", attempts: 0, nextAttempt: null, lastError: reason, deadlineAt: roundDeadline(at(2)) }),
          attempts: [],
          rounds: [{ round: 1, url: "", startedAt: at(2), deadlineAt: roundDeadline(at(2)), endedAt: at(2), outcome: "failed", reason }]
        })
        // Failed: it is not due any more; the other two are, once a's lease has run out.
        expect(sorted((yield* claimed("c", at(1000))).keys())).toEqual(sorted(events.slice(1).map((e) => e.id)))
      }))

    test("a started round goes on while it has had fewer than maxAttempts and its deadline is ahead; endRound ends it otherwise", () =>
      Effect.gen(function*() {
        const ledger = yield* DeliveryLedger
        const scope = yield* enabledScope
        const spent = yield* outboxEvent(scope, at(0))
        const late = yield* outboxEvent(scope, at(0))
        const deadline = roundDeadline(at(0))
        const first = yield* claimed("a", at(0), { maxAttempts: 2 })
        yield* finished("a", first.get(spent.id)!, at(1), retry(10))
        yield* finished("a", first.get(late.id)!, at(1), { _tag: "Retry", at: deadline })
        const second = yield* claimed("a", at(10), { maxAttempts: 2 })
        expect(second.get(spent.id)?.started).toEqual({ attempt: 2, url, startedAt: at(10) })
        yield* finished("a", second.get(spent.id)!, at(11), retry(30))
        // Two attempts of two: claimed, not started.
        const third = (yield* claimed("a", at(30), { maxAttempts: 2 })).get(spent.id)
        expect([third?.started, third?.openAttempt, third?.attempts, third?.roundUrl]).toEqual([null, null, 2, url])
        // With more attempts allowed it goes on (once its claim is given back).
        yield* ledger.release([claimOf("a", third!)])
        expect((yield* claimed("a", at(30), { maxAttempts: 3 })).get(spent.id)?.started?.attempt).toBe(3)
        // The deadline reached: claimed, not started; ended only under its claim.
        const ending = (yield* claimed("a", deadline)).get(late.id)
        expect([ending?.started, ending?.openAttempt, ending?.attempts, ending?.lastError]).toEqual([null, null, 1, "HTTP 500: expected 200"])
        const reason = "round deadline reached; last error: HTTP 500: expected 200"
        yield* ledger.endRound(claimOf("b", ending!), deadline, "lost")
        expect((yield* eventOf(scope, late.id)).status).toBe("pending")
        yield* ledger.endRound(claimOf("a", ending!), deadline, reason)
        expect(yield* eventOf(scope, late.id)).toMatchObject({ status: "failed", attempts: 1, nextAttempt: null, lastError: reason })
        expect(yield* roundsOf(scope, late.id)).toEqual([
          { round: 1, url, startedAt: at(0), deadlineAt: deadline, endedAt: deadline, outcome: "failed", reason }
        ])
        expect((yield* claimed("c", at(1_000_000))).has(late.id)).toBe(false)
      }))

    test("an event whose round already has an attempt past its count is claimed without starting one", () =>
      Effect.gen(function*() {
        const repository = yield* NotificationRepository
        const scope = yield* enabledScope
        const event = yield* outboxEvent(scope, at(0))
        yield* finished("a", (yield* claimed("a", at(0))).get(event.id)!, at(1), retry(10))
        // A round started again under the same number: its attempt 1 is recorded, the count is 0.
        yield* repository.startRound(scope, event.id, () => Effect.succeed({ round: 1, startedAt: at(5), deadlineAt: roundDeadline(at(5)) }))
        const again = (yield* claimed("b", at(5))).get(event.id)
        expect(again).toMatchObject({ started: null, openAttempt: null, attempts: 0, roundUrl: null, webhook: { url, enabled: true } })
        expect((yield* attemptsOf(scope, event.id)).map((a) => [a.round, a.attempt, a.outcome])).toEqual([[1, 1, "failed"]])
      }))

    test("markSending: marks the open attempts whose claim is held and unexpired, and only those", () =>
      Effect.gen(function*() {
        const ledger = yield* DeliveryLedger
        const scope = yield* enabledScope
        const takenOver = yield* outboxEvent(scope, at(0))
        const [held, expired] = yield* Effect.forEach([1, 2], () => outboxEvent(scope, at(0.5)))
        // takenOver: a's lease runs out at at(2) and b claims it; its attempt, never sent, is open.
        const short = yield* claimed("a", at(0), { leaseUntil: at(2) })
        const claims = new Map([...short, ...(yield* claimed("a", at(1)))])
        expect([...claims.values()].map((e) => e.started?.attempt)).toEqual([1, 1, 1])
        expect((yield* claimed("b", at(3))).get(takenOver.id)?.openAttempt).toEqual({ attempt: 1, startedAt: at(0), sent: false })

        const attempts = [held.id, takenOver.id, expired.id].map((id) => heldBy("a", claims.get(id)!))
        // A wrong attempt number is not the open attempt: not marked either.
        const marked = yield* ledger.markSending([...attempts.slice(0, 2), { ...attempts[0]!, attempt: 2 }], at(4))
        expect(marked).toEqual([held.id])
        // expired: its lease (until at(61)) ran out by the time the mark is asked for.
        expect(yield* ledger.markSending([attempts[2]!], at(1 + leaseSeconds))).toEqual([])
        expect(yield* ledger.markSending([], at(4))).toEqual([])
        // Marked or not shows when the attempts are taken over.
        const later = yield* claimed("c", at(200))
        expect([held, takenOver, expired].map((e) => later.get(e.id)?.openAttempt)).toEqual([
          { attempt: 1, startedAt: at(1), sent: true },
          { attempt: 1, startedAt: at(0), sent: false },
          { attempt: 1, startedAt: at(1), sent: false }
        ])
        expect([...later.values()].every((e) => e.started === null)).toBe(true)
      }))

    test("withdrawAttempts: an unsent attempt is taken back, counted out, still due, its claim released; again changes nothing", () =>
      Effect.gen(function*() {
        const ledger = yield* DeliveryLedger
        const scope = yield* enabledScope
        // second: attempt 1 failed, attempt 2 due at at(10).
        const second = yield* outboxEvent(scope, at(-5))
        yield* finished("a", (yield* claimed("a", at(-5))).get(second.id)!, at(-4), retry(10))
        const first = yield* outboxEvent(scope, at(0))
        const sent = yield* outboxEvent(scope, at(0))
        const before = yield* stateOf(scope, second.id)

        const got = yield* claimed("a", at(11))
        expect([first, second, sent].map((e) => got.get(e.id)?.started?.attempt)).toEqual([1, 2, 1])
        const attempts = [first, second, sent].map((e) => heldBy("a", got.get(e.id)!))
        yield* ledger.markSending([attempts[2]!], at(12))
        const sentState = yield* stateOf(scope, sent.id)

        expect(sorted(yield* ledger.withdrawAttempts(attempts))).toEqual(sorted([first.id, second.id]))
        // The count goes back and the schedule stays where it was.
        expect(yield* stateOf(scope, second.id)).toEqual(before)
        expect(yield* eventOf(scope, first.id)).toMatchObject({ status: "pending", attempts: 0, nextAttempt: at(0) })
        // An attempt marked sending is not taken back: it may have reached the receiver.
        expect(yield* stateOf(scope, sent.id)).toEqual(sentState)

        // Again: nothing is withdrawn twice.
        const after = yield* Effect.forEach([first, second, sent], (e) => stateOf(scope, e.id))
        expect(yield* ledger.withdrawAttempts(attempts)).toEqual([])
        expect(yield* ledger.withdrawAttempts([])).toEqual([])
        expect(yield* Effect.forEach([first, second, sent], (e) => stateOf(scope, e.id))).toEqual(after)

        // Released and due at once: another dispatcher (before a's lease ran out) starts the same attempts again.
        const again = yield* claimed("b", at(13))
        expect(again.get(first.id)?.started).toEqual({ attempt: 1, url, startedAt: at(13) })
        expect(again.get(second.id)?.started).toEqual({ attempt: 2, url, startedAt: at(13) })
        expect(again.has(sent.id)).toBe(false)
      }))

    test("withdrawAttempts: the first attempt of a new round is taken back, its round stays started with its URL", () =>
      Effect.gen(function*() {
        const ledger = yield* DeliveryLedger
        const scope = yield* enabledScope
        const event = yield* outboxEvent(scope, at(0))
        const got = (yield* claimed("a", at(11))).get(event.id)!
        expect(yield* ledger.withdrawAttempts([heldBy("a", got)])).toEqual([event.id])
        const round = { round: 1, url, startedAt: at(11), deadlineAt: roundDeadline(at(11)), endedAt: null, outcome: null, reason: "" }
        expect(yield* stateOf(scope, event.id)).toEqual({
          event: expect.objectContaining({ status: "pending", attempts: 0, nextAttempt: at(0), deadlineAt: roundDeadline(at(11)) }),
          attempts: [],
          rounds: [round]
        })
        // The round's URL is the one it started with, whatever is configured now.
        yield* Effect.flatMap(SettingsRepository, (settings) => settings.setWebhook(scope, { url: "https://hooks.example.com/new", enabled: true }))
        const again = (yield* claimed("b", at(13))).get(event.id)
        expect(again?.started).toEqual({ attempt: 1, url, startedAt: at(13) })
        expect(again?.webhook).toBeNull()
        expect(yield* roundsOf(scope, event.id)).toEqual([round])
      }))

    test("withdrawAttempts: a holder that lost its claim withdraws nothing; the new holder withdraws", () =>
      Effect.gen(function*() {
        const ledger = yield* DeliveryLedger
        const scope = yield* enabledScope
        const event = yield* outboxEvent(scope, at(0))
        const mine = heldBy("a", (yield* claimed("a", at(1))).get(event.id)!)
        // a's lease ran out and b took the event over.
        const theirs = heldBy("b", (yield* claimed("b", at(2 + leaseSeconds))).get(event.id)!)
        const taken = yield* stateOf(scope, event.id)
        expect(yield* ledger.withdrawAttempts([mine])).toEqual([])
        expect(yield* stateOf(scope, event.id)).toEqual(taken)
        expect(yield* ledger.withdrawAttempts([theirs])).toEqual([event.id])
        expect(yield* eventOf(scope, event.id)).toMatchObject({ status: "pending", attempts: 0, nextAttempt: at(0) })
        expect(yield* attemptsOf(scope, event.id)).toEqual([])
      }))

    test("finishAttempts: each attempt closed, its event moved on (delivered, retried, round failed) and released; a batch written again changes nothing", () =>
      Effect.gen(function*() {
        const ledger = yield* DeliveryLedger
        const scope = yield* enabledScope
        const [delivered, retried, failed] = yield* Effect.forEach([0, 1, 2], () => outboxEvent(scope, at(0)))
        const got = yield* claimed("a", at(1))
        const next = [{ _tag: "Delivered" }, retry(11), { _tag: "RoundFailed", reason: "20 attempts failed; last error: HTTP 500: expected 200" }] as const
        const batch = [delivered, retried, failed].map((e, i) => {
          const due = got.get(e.id)!
          return { ...heldBy("a", due), record: recordOf(due, at(1.5), next[i]!), next: next[i]! }
        })
        yield* ledger.finishAttempts(batch)
        const closed = (outcome: string, httpStatus: number, error: string, excerpt: string) => [{
          round: 1, attempt: 1, url, startedAt: at(1), endedAt: at(1.5), durationMs: 500, httpStatus, responseExcerpt: excerpt, error, outcome
        }]
        const round = { round: 1, url, startedAt: at(1), deadlineAt: roundDeadline(at(1)) }
        const states = yield* Effect.forEach([delivered, retried, failed], (e) => stateOf(scope, e.id))
        expect(states).toEqual([
          {
            event: expect.objectContaining({ status: "delivered", attempts: 1, nextAttempt: null, deliveredAt: at(1.5), lastError: "" }),
            attempts: closed("delivered", 200, "", '{"code":0}'),
            rounds: [{ ...round, endedAt: at(1.5), outcome: "delivered", reason: "" }]
          },
          {
            event: expect.objectContaining({ status: "pending", attempts: 1, nextAttempt: at(11), deliveredAt: null, lastError: "HTTP 500: expected 200" }),
            attempts: closed("failed", 500, "HTTP 500: expected 200", "boom"),
            rounds: [{ ...round, endedAt: null, outcome: null, reason: "" }]
          },
          {
            event: expect.objectContaining({ status: "failed", attempts: 1, nextAttempt: null, deliveredAt: null, lastError: next[2].reason }),
            attempts: closed("failed", 500, "HTTP 500: expected 200", "boom"),
            rounds: [{ ...round, endedAt: at(1.5), outcome: "failed", reason: next[2].reason }]
          }
        ])
        // Written again (after an error whose write may have committed): each attempt is recorded once.
        const otherwise = { ...batch[1]!, record: recordOf(got.get(retried.id)!, at(3), { _tag: "Delivered" }), next: { _tag: "Delivered" } } as const
        yield* ledger.finishAttempts(batch)
        yield* ledger.finishAttempts([otherwise])
        expect(yield* Effect.forEach([delivered, retried, failed], (e) => stateOf(scope, e.id))).toEqual(states)
        // Even with the event held by the same holder again (claimed without an attempt): its attempt is closed.
        const held = (yield* claimed("a", at(11), { maxAttempts: 1 })).get(retried.id)!
        expect(held.started).toBeNull()
        yield* ledger.finishAttempts([otherwise])
        expect(yield* stateOf(scope, retried.id)).toEqual(states[1])
        yield* ledger.release([claimOf("a", held)])
        // Released: the retry is due at its time, not before, in the same round with the same URL.
        expect((yield* claimed("b", at(10.999))).size).toBe(0)
        const again = (yield* claimed("b", at(11))).get(retried.id)
        expect(again?.started).toEqual({ attempt: 2, url, startedAt: at(11) })
        expect(yield* roundsOf(scope, retried.id)).toEqual(states[1]!.rounds)
        yield* ledger.finishAttempts([])
      }))

    // Whatever a tenant's server answers is kept as its excerpt: a batch write must carry any text
    // intact, however it packs the batch (quotes, backslashes, braces, commas, the word NULL, lines, emoji).
    test("finishAttempts: any text of a response excerpt or error is recorded as it was, in a batch of several", () =>
      Effect.gen(function*() {
        const ledger = yield* DeliveryLedger
        const scope = yield* enabledScope
        const texts = ['say "hi" \\ {a,b} NULL', "NULL", "", "line one\nline two\t, 🎉 ünïcode"]
        const events = yield* Effect.forEach(texts, () => outboxEvent(scope, at(0)))
        const got = yield* claimed("a", at(1))
        const retried = retry(11)
        yield* ledger.finishAttempts(events.map((e, i) => {
          const due = got.get(e.id)!
          return { ...heldBy("a", due), record: { ...recordOf(due, at(1.5), retried), responseExcerpt: texts[i]!, error: texts[i]! }, next: retried }
        }))
        for (const [i, e] of events.entries()) {
          const [attempt] = yield* attemptsOf(scope, e.id)
          expect(attempt).toEqual(expect.objectContaining({ responseExcerpt: texts[i], error: texts[i] }))
          expect((yield* eventOf(scope, e.id)).lastError).toBe(texts[i])
        }
      }))

    test("finishAttempts: an attempt whose claim was taken over is not recorded by the old holder; the new holder settles it", () =>
      Effect.gen(function*() {
        const ledger = yield* DeliveryLedger
        const scope = yield* enabledScope
        const event = yield* outboxEvent(scope, at(0))
        const mine = (yield* claimed("a", at(0))).get(event.id)!
        yield* ledger.markSending([heldBy("a", mine)], at(1))
        const theirs = (yield* claimed("b", at(61))).get(event.id)!
        expect(theirs.openAttempt).toEqual({ attempt: 1, startedAt: at(0), sent: true })
        const taken = yield* stateOf(scope, event.id)
        yield* finished("a", mine, at(62), { _tag: "Delivered" })
        expect(yield* stateOf(scope, event.id)).toEqual(taken)
        // b closes the attempt it found open as interrupted.
        const interrupted = "interrupted: the worker stopped before the attempt finished"
        yield* finished("b", theirs, at(62), retry(70), { httpStatus: null, error: interrupted, responseExcerpt: "" })
        expect(yield* eventOf(scope, event.id)).toMatchObject({ status: "pending", attempts: 1, nextAttempt: at(70), lastError: interrupted })
        expect(yield* attemptsOf(scope, event.id)).toMatchObject([{ attempt: 1, endedAt: at(62), durationMs: 62_000, error: interrupted, outcome: "failed" }])
      }))

    test("release gives the events back unchanged, only the holder's own; an open attempt stays open", () =>
      Effect.gen(function*() {
        const ledger = yield* DeliveryLedger
        const scope = yield* enabledScope
        const event = yield* outboxEvent(scope, at(0))
        const mine = (yield* claimed("a", at(1))).get(event.id)!
        const before = yield* stateOf(scope, event.id)
        yield* ledger.release([claimOf("b", mine)])
        expect((yield* claimed("b", at(2))).size).toBe(0)
        yield* ledger.release([claimOf("a", mine)])
        yield* ledger.release([])
        expect(yield* stateOf(scope, event.id)).toEqual(before)
        expect((yield* claimed("b", at(2))).get(event.id)).toMatchObject({ started: null, openAttempt: { attempt: 1, startedAt: at(1), sent: false } })
      }))

    test("handBack gives back, unchanged, what the named claims still hold on the network; other claims and networks keep theirs", () =>
      Effect.gen(function*() {
        const ledger = yield* DeliveryLedger
        const scope = yield* enabledScope
        const main = yield* webhookScope("main", { url, enabled: true })
        const [lost, done] = yield* Effect.forEach([0, 0], (s) => outboxEvent(scope, at(s)))
        const onMain = yield* outboxEvent(main, at(0))
        // A claim whose reply never came: its events are held for 60 s, one attempt each started.
        const gone = yield* claimed("gone#1", at(1))
        yield* claimed("gone#1", at(1), { network: "main" })
        yield* finished("gone#1", gone.get(done!.id)!, at(2), { _tag: "Delivered" })
        const live = yield* outboxEvent(scope, at(3))
        expect([...(yield* claimed("live#2", at(3))).keys()]).toEqual([live.id])
        const before = yield* stateOf(scope, lost!.id)
        expect(yield* ledger.handBack("nile", ["gone#1", "never#9"])).toEqual([lost!.id])
        expect(yield* ledger.handBack("nile", [])).toEqual([])
        expect(yield* stateOf(scope, lost!.id)).toEqual(before)
        // Claimable at once, well inside the old lease, with its attempt still open to settle.
        const next = yield* claimed("next#3", at(4))
        expect([...next.keys()]).toEqual([lost!.id])
        expect(next.get(lost!.id)).toMatchObject({ started: null, openAttempt: { attempt: 1, startedAt: at(1), sent: false } })
        // The other network's event stays claimed until handed back there.
        expect((yield* claimed("other", at(4), { network: "main" })).size).toBe(0)
        expect(yield* ledger.handBack("main", ["gone#1"])).toEqual([onMain.id])
      }))

    test("backlog: the network's open events due by now, claimed or not, and the oldest due time", () =>
      Effect.gen(function*() {
        const ledger = yield* DeliveryLedger
        const scope = yield* enabledScope
        const main = yield* webhookScope("main", { url, enabled: true })
        expect(yield* ledger.backlog("nile", at(0))).toEqual({ due: 0, oldestDueAt: null })
        const [done] = yield* Effect.forEach([3, 5, 7], (s) => outboxEvent(scope, at(s)))
        yield* outboxEvent(scope, at(100))
        yield* outboxEvent(main, at(1))
        expect(yield* ledger.backlog("nile", at(7))).toEqual({ due: 3, oldestDueAt: at(3) })
        const got = yield* claimed("a", at(7), { limit: 1 })
        expect(yield* ledger.backlog("nile", at(7))).toEqual({ due: 3, oldestDueAt: at(3) })
        yield* finished("a", got.get(done!.id)!, at(8), { _tag: "Delivered" })
        expect(yield* ledger.backlog("nile", at(8))).toEqual({ due: 2, oldestDueAt: at(5) })
        expect(yield* ledger.backlog("nile", at(6))).toEqual({ due: 1, oldestDueAt: at(5) })
        expect(yield* ledger.backlog("main", at(8))).toEqual({ due: 1, oldestDueAt: at(1) })
      }))
  })
