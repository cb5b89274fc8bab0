import { SettingsRepository } from "../settings/SettingsRepository.js"
import { describe, expect } from "@effect/vitest"
import { Effect, Exit, type Layer, Option } from "effect"
import type { EventId } from "../deposits/Deposit.js"
import { claimOf, DeliveryLedger, type NextStep } from "./DeliveryLedger.js"
import { roundDeadline } from "./DeliverySchedule.js"
import type { NotificationEvent } from "./NotificationEvent.js"
import { NotificationRepository } from "./NotificationRepository.js"
import type { DepositBook } from "../scanning/DepositBook.js"
import { claimedAll, eventOf, finished } from "./DeliverySteps.js"
import { outboxEvent, webhookScope } from "../testing/OutboxEvents.js"
import { onFreshStorage } from "../testing/FreshStorage.js"
import { StorageFixtures } from "../testing/StorageFixtures.js"

type Ports = NotificationRepository | DeliveryLedger | DepositBook | SettingsRepository | StorageFixtures

const url = "https://hooks.example.com/in"
const at = (seconds: number) => new Date(Date.UTC(2026, 2, 1) + seconds * 1000)
const all = { page: 1, pageSize: 100 }

const failedRound: NextStep = { _tag: "RoundFailed", reason: "20 attempts failed; last error: HTTP 500: expected 200" }

/**
 * What every NotificationRepository must do: show a scope's events, their rounds (the current
 * one even before it starts) and attempts, newest first in pages, and start a new round under a
 * lock. Each test gets a storage of its own (`storage` is built per test): the delivery states
 * are reached through the DeliveryLedger, whose claims read a whole network.
 */
export const notificationRepositoryContract = <E>(name: string, storage: Layer.Layer<Ports, E>) =>
  describe(`NotificationRepository contract (${name})`, () => {
    const test = onFreshStorage(storage)

    test("list: the scope's events by ID descending (as numbers), in pages, each with the total", () =>
      Effect.gen(function*() {
        const repository = yield* NotificationRepository
        const scope = yield* webhookScope("nile", null)
        // Twelve events: in a new store their IDs pass from one digit to two.
        const mine = yield* Effect.forEach(Array.from({ length: 12 }, (_, i) => i), (i) => outboxEvent(scope, at(i)))
        // Another tenant's, and the same tenant's on the other network, are never listed.
        yield* outboxEvent(yield* webhookScope("nile", null), at(0))
        yield* outboxEvent({ tenantId: scope.tenantId, network: "main" }, at(0))
        const ids = mine.map((e) => e.id).sort((a, b) => (BigInt(b) > BigInt(a) ? 1 : BigInt(b) < BigInt(a) ? -1 : 0))
        const page = (n: number, size: number) => Effect.map(repository.list(scope, { page: n, pageSize: size }), (p) => ({ ids: p.items.map((e) => e.id), total: p.total }))
        expect(yield* page(1, 5)).toEqual({ ids: ids.slice(0, 5), total: 12 })
        expect(yield* page(2, 5)).toEqual({ ids: ids.slice(5, 10), total: 12 })
        expect(yield* page(3, 5)).toEqual({ ids: ids.slice(10), total: 12 })
        expect(yield* page(4, 5)).toEqual({ ids: [], total: 12 })
        expect((yield* repository.list({ tenantId: scope.tenantId, network: "main" }, all)).total).toBe(1)
      }))

    test("list filters by event type and by delivery status, alone or together", () =>
      Effect.gen(function*() {
        const repository = yield* NotificationRepository
        const scope = yield* webhookScope("nile", { url, enabled: true })
        const [delivered, retried, failed, delivering] = yield* Effect.forEach(
          ["sweep.succeeded", "deposit.confirmed", "sweep.failed", "deposit.confirmed"] as const,
          (eventType) => outboxEvent(scope, at(0), { eventType })
        )
        const pending = yield* outboxEvent(scope, at(5), { eventType: "deposit.reverted" })
        const claimed = yield* claimedAll("nile", "a", at(1))
        yield* finished("a", claimed.get(delivered!.id)!, at(2), { _tag: "Delivered" })
        yield* finished("a", claimed.get(retried!.id)!, at(2), { _tag: "Retry", at: at(11) })
        yield* finished("a", claimed.get(failed!.id)!, at(2), failedRound)
        const listed = (query: Parameters<NotificationRepository["Type"]["list"]>[1]) =>
          Effect.map(repository.list(scope, query), (p) => ({ ids: p.items.map((e) => e.id).sort(), total: p.total }))
        const sorted = (...events: ReadonlyArray<{ readonly id: EventId }>) => ({ ids: events.map((e) => e.id).sort(), total: events.length })
        expect(yield* listed({ ...all, status: "delivered" })).toEqual(sorted(delivered!))
        expect(yield* listed({ ...all, status: "pending" })).toEqual(sorted(retried!, pending))
        expect(yield* listed({ ...all, status: "failed" })).toEqual(sorted(failed!))
        expect(yield* listed({ ...all, status: "delivering" })).toEqual(sorted(delivering!))
        expect(yield* listed({ ...all, eventType: "deposit.confirmed" })).toEqual(sorted(retried!, delivering!))
        expect(yield* listed({ ...all, eventType: "deposit.confirmed", status: "pending" })).toEqual(sorted(retried!))
        expect(yield* listed({ ...all, eventType: "sweep.cancelled" })).toEqual(sorted())
      }))

    test("find: the event as stored, its payload the same text; another tenant's or the other network's is None", () =>
      Effect.gen(function*() {
        const repository = yield* NotificationRepository
        const scope = yield* webhookScope("nile", null)
        // Member order and spacing are kept exactly: the payload is text, never re-serialised.
        const payload = (id: string) => `{"z":1, "event_id":"${id}","amount":"1.50"}`
        const event = yield* outboxEvent(scope, new Date("2026-03-01T01:02:03.456Z"), { eventType: "deposit.reverted", payload })
        const expected: NotificationEvent = {
          id: event.id,
          network: "nile",
          eventType: "deposit.reverted",
          status: "pending",
          attempts: 0,
          currentRound: 1,
          nextAttempt: event.dueAt,
          deadlineAt: event.deadlineAt,
          lastError: "",
          createdAt: event.createdAt,
          deliveredAt: null,
          payload: payload(event.id)
        }
        expect(yield* repository.find(scope, event.id)).toEqual(Option.some(expected))
        const stranger = yield* webhookScope("nile", null)
        expect(yield* repository.find(stranger, event.id)).toEqual(Option.none())
        expect(yield* repository.find({ tenantId: scope.tenantId, network: "main" }, event.id)).toEqual(Option.none())
        expect(yield* repository.find(scope, String(BigInt(event.id) + 1000n) as EventId)).toEqual(Option.none())
      }))

    test("a delivered event shows when it was delivered, and the error of the attempts before", () =>
      Effect.gen(function*() {
        const scope = yield* webhookScope("nile", { url, enabled: true })
        const event = yield* outboxEvent(scope, at(0))
        yield* finished("a", (yield* claimedAll("nile", "a", at(0))).get(event.id)!, at(1), { _tag: "Retry", at: at(10) })
        expect(yield* eventOf(scope, event.id)).toMatchObject({ status: "pending", attempts: 1, nextAttempt: at(10), lastError: "HTTP 500: expected 200" })
        yield* finished("a", (yield* claimedAll("nile", "a", at(10))).get(event.id)!, at(12), { _tag: "Delivered" })
        expect(yield* eventOf(scope, event.id)).toMatchObject({
          status: "delivered",
          attempts: 2,
          nextAttempt: null,
          deliveredAt: at(12),
          lastError: "HTTP 500: expected 200"
        })
      }))

    test("rounds: the current round before it starts, from when it was opened with no URL; then as stored, newest first, in pages", () =>
      Effect.gen(function*() {
        const repository = yield* NotificationRepository
        const scope = yield* webhookScope("nile", { url, enabled: true })
        const event = yield* outboxEvent(scope, at(0))
        const rounds = (query = all) => Effect.map(repository.rounds(scope, event.id, query), Option.getOrThrow)
        expect(yield* rounds()).toEqual({
          items: [{ round: 1, url: "", startedAt: at(0), deadlineAt: roundDeadline(at(0)), endedAt: null, outcome: null, reason: "" }],
          total: 1
        })
        // The claim starts the round with the URL configured then.
        const claimed = (yield* claimedAll("nile", "a", at(3))).get(event.id)!
        const first = { round: 1, url, startedAt: at(3), deadlineAt: roundDeadline(at(3)), endedAt: null, outcome: null, reason: "" }
        expect(yield* rounds()).toEqual({ items: [first], total: 1 })
        yield* finished("a", claimed, at(4), failedRound)
        const ended = { ...first, endedAt: at(4), outcome: "failed", reason: failedRound.reason }
        expect(yield* rounds()).toEqual({ items: [ended], total: 1 })
        // A re-push opens round 2: shown from its opening until the dispatcher starts it.
        yield* repository.startRound(scope, event.id, () => Effect.succeed({ round: 2, startedAt: at(100), deadlineAt: roundDeadline(at(100)) }))
        const second = { round: 2, url: "", startedAt: at(100), deadlineAt: roundDeadline(at(100)), endedAt: null, outcome: null, reason: "" }
        expect(yield* rounds()).toEqual({ items: [second, ended], total: 2 })
        expect(yield* rounds({ page: 1, pageSize: 1 })).toEqual({ items: [second], total: 2 })
        expect(yield* rounds({ page: 2, pageSize: 1 })).toEqual({ items: [ended], total: 2 })
        expect(yield* rounds({ page: 3, pageSize: 1 })).toEqual({ items: [], total: 2 })
        const stranger = yield* webhookScope("nile", null)
        expect(yield* repository.rounds(stranger, event.id, all)).toEqual(Option.none())
        expect(yield* repository.rounds({ tenantId: scope.tenantId, network: "main" }, event.id, all)).toEqual(Option.none())
      }))

    test("attempts: newest first (round, then attempt), narrowed to one round, in pages; none yet is an empty page", () =>
      Effect.gen(function*() {
        const repository = yield* NotificationRepository
        const scope = yield* webhookScope("nile", { url, enabled: true })
        const event = yield* outboxEvent(scope, at(0))
        const attempts = (query: { readonly page: number; readonly pageSize: number; readonly round?: number } = all) =>
          Effect.map(repository.attempts(scope, event.id, query), Option.getOrThrow)
        expect(yield* attempts()).toEqual({ items: [], total: 0 })
        yield* finished("a", (yield* claimedAll("nile", "a", at(0))).get(event.id)!, at(1.25), { _tag: "Retry", at: at(10) }, { responseExcerpt: "x" })
        yield* finished("a", (yield* claimedAll("nile", "a", at(10))).get(event.id)!, at(11), failedRound, { httpStatus: null, error: "timeout" })
        yield* repository.startRound(scope, event.id, () => Effect.succeed({ round: 2, startedAt: at(20), deadlineAt: roundDeadline(at(20)) }))
        yield* claimedAll("nile", "a", at(20))
        const first = {
          round: 1,
          attempt: 1,
          url,
          startedAt: at(0),
          endedAt: at(1.25),
          durationMs: 1250,
          httpStatus: 500,
          responseExcerpt: "x",
          error: "HTTP 500: expected 200",
          outcome: "failed"
        }
        const second = { ...first, attempt: 2, startedAt: at(10), endedAt: at(11), durationMs: 1000, httpStatus: null, responseExcerpt: "boom", error: "timeout" }
        const open = { round: 2, attempt: 1, url, startedAt: at(20), endedAt: null, durationMs: null, httpStatus: null, responseExcerpt: "", error: "", outcome: null }
        expect(yield* attempts()).toEqual({ items: [open, second, first], total: 3 })
        expect(yield* attempts({ ...all, round: 1 })).toEqual({ items: [second, first], total: 2 })
        expect(yield* attempts({ ...all, round: 3 })).toEqual({ items: [], total: 0 })
        expect(yield* attempts({ page: 2, pageSize: 2 })).toEqual({ items: [first], total: 3 })
        expect(yield* attempts({ page: 2, pageSize: 1, round: 1 })).toEqual({ items: [first], total: 2 })
        const stranger = yield* webhookScope("nile", null)
        expect(yield* repository.attempts(stranger, event.id, all)).toEqual(Option.none())
        expect(yield* repository.attempts({ tenantId: scope.tenantId, network: "main" }, event.id, all)).toEqual(Option.none())
      }))

    test("startRound: decide sees the event as it stands; the round it names is saved and returned, the previous claim void", () =>
      Effect.gen(function*() {
        const repository = yield* NotificationRepository
        const scope = yield* webhookScope("nile", { url, enabled: true })
        const event = yield* outboxEvent(scope, at(0))
        const claimed = (yield* claimedAll("nile", "a", at(1))).get(event.id)!
        yield* finished("a", claimed, at(2), { _tag: "Delivered" })
        // The port starts whatever round `decide` names: the rules are the caller's.
        const before = yield* eventOf(scope, event.id)
        let seen: NotificationEvent | undefined
        const saved = yield* repository.startRound(scope, event.id, (current) =>
          Effect.sync(() => {
            seen = current
            return { round: 4, startedAt: at(50), deadlineAt: at(500) }
          }))
        expect(seen).toEqual(before)
        const expected: NotificationEvent = {
          ...before,
          currentRound: 4,
          attempts: 0,
          status: "pending",
          nextAttempt: at(50),
          deadlineAt: at(500),
          lastError: ""
        }
        expect(saved).toEqual(Option.some(expected))
        expect(yield* eventOf(scope, event.id)).toEqual(expected)
        // Claimed by "b" until at(110); a re-push voids that claim: "c" claims it at once.
        expect((yield* claimedAll("nile", "b", at(50))).get(event.id)?.started).toEqual({ attempt: 1, url, startedAt: at(50) })
        yield* repository.startRound(scope, event.id, (current) => Effect.succeed({ round: current.currentRound + 1, startedAt: at(60), deadlineAt: at(600) }))
        const taken = (yield* claimedAll("nile", "c", at(61))).get(event.id)
        expect(taken?.round).toBe(5)
        expect(taken?.started).toEqual({ attempt: 1, url, startedAt: at(61) })
      }))

    test("startRound: a refusal changes nothing; outside the scope it is None and decide is never asked", () =>
      Effect.gen(function*() {
        const repository = yield* NotificationRepository
        const scope = yield* webhookScope("nile", null)
        const event = yield* outboxEvent(scope, at(0))
        const before = yield* eventOf(scope, event.id)
        const refused = yield* Effect.exit(repository.startRound(scope, event.id, () => Effect.fail("not failed" as const)))
        expect(refused).toEqual(Exit.fail("not failed"))
        expect(yield* eventOf(scope, event.id)).toEqual(before)
        let asked = 0
        const decide = () => Effect.sync(() => (asked++, { round: 2, startedAt: at(9), deadlineAt: at(99) }))
        const stranger = yield* webhookScope("nile", null)
        expect(yield* repository.startRound(stranger, event.id, decide)).toEqual(Option.none())
        expect(yield* repository.startRound({ tenantId: scope.tenantId, network: "main" }, event.id, decide)).toEqual(Option.none())
        expect(asked).toBe(0)
        expect(yield* eventOf(scope, event.id)).toEqual(before)
      }))

    test("startRound: re-pushes at the same time each see the other's round: exactly one starts a round", () =>
      Effect.gen(function*() {
        const repository = yield* NotificationRepository
        // No webhook: the first round fails at once.
        const scope = yield* webhookScope("nile", null)
        const event = yield* outboxEvent(scope, at(0))
        const claimed = (yield* claimedAll("nile", "a", at(1))).get(event.id)!
        yield* Effect.flatMap(DeliveryLedger, (l) => l.failNewRound(claimOf("a", claimed), { at: at(1), deadlineAt: roundDeadline(at(1)), reason: "no webhook URL is configured" }))
        const repush = repository.startRound(scope, event.id, (current) =>
          // Others get every chance to run while this one decides.
          Effect.zipRight(
            Effect.repeatN(Effect.yieldNow(), 20),
            current.status === "failed"
              ? Effect.succeed({ round: current.currentRound + 1, startedAt: at(30), deadlineAt: at(300) })
              : Effect.fail(current.status)
          ))
        const exits = yield* Effect.all([Effect.exit(repush), Effect.exit(repush), Effect.exit(repush)], { concurrency: "unbounded" })
        expect(exits.filter(Exit.isSuccess).length).toBe(1)
        expect(exits.filter(Exit.isFailure)).toEqual([Exit.fail("pending"), Exit.fail("pending")])
        expect(yield* eventOf(scope, event.id)).toMatchObject({ currentRound: 2, status: "pending" })
      }))
  })
