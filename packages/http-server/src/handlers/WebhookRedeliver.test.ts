import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { seedEvent, type SeedDeliveryStatus } from "@collector/postgres/testing"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { expectError, expectOk } from "../testing/Assertions.js"
import { TestServerLive } from "../testing/TestServer.js"
import { eventTarget, redeliverTarget, roundsTarget, scopeOf, storedEvent } from "../testing/Webhooks.js"
import { type Client, expectInvalid, tenantClients } from "../testing/Wallets.js"

const day = 86_400_000

/** A round that ended failed after all 20 attempts, its claim left behind by the dispatcher. */
const failedRound = {
  status: "failed" as const, attempts: 20, currentRound: 1, nextAttempt: null, deadlineAt: "2026-02-02T00:00:00Z",
  lastError: "HTTP 500", createdAt: "2026-02-01T00:00:00.123Z", roundUrl: "https://old.example.com/h",
  roundStartedAt: "2026-02-01T00:00:00Z", claimedBy: "worker-1", claimedUntil: "2026-02-01T00:01:00Z"
}

const setStatus = (id: string, status: SeedDeliveryStatus) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE events SET status = ${status}, next_attempt = NULL WHERE id = ${id}`).pipe(Effect.orDie)

const redeliver = (client: Client, id: string, requestId: string = randomUUID()) => client.post(redeliverTarget(id), { request_id: requestId })

layer(TestServerLive({ rateBurst: 1000, ratePerSecond: 1000 }), { excludeTestServices: true })("notification redeliver", (it) => {
  it.effect("from failed: a new round now, with event ID, payload and created_at unchanged", () =>
    Effect.gen(function*() {
      const { client, tenant } = yield* tenantClients()
      const id = yield* seedEvent(scopeOf(tenant), { ...failedRound, eventType: "sweep.failed" })
      const before = expectOk(yield* client.get(eventTarget(id)))
      const sent = Date.now()
      const data = expectOk(yield* redeliver(client, id))
      const done = Date.now()
      expect(data).toEqual({
        ...before, status: "pending", attempts: 0, current_round: 2, last_error: "",
        next_attempt: data.next_attempt, deadline_at: data.deadline_at
      })
      const next = Date.parse(data.next_attempt)
      expect(next).toBeGreaterThanOrEqual(sent - 5)
      expect(next).toBeLessThanOrEqual(done + 5)
      expect(Date.parse(data.deadline_at)).toBe(next + day)
      expect([data.id, data.created_at, data.payload]).toEqual([id, "2026-02-01T00:00:00.123Z", before.payload])
      // The detail reads back what was saved; the dispatcher will fix the URL when it starts the round.
      expect(expectOk(yield* client.get(eventTarget(id)))).toEqual(data)
      const row = yield* storedEvent(id)
      expect(row).toMatchObject({ round_url: null, claimed_by: null, claimed_until: null, delivered_at: null })
      expect((row.round_started_at as Date).getTime()).toBe(next)
      const rounds = expectOk(yield* client.get(roundsTarget(id)))
      expect(rounds.items[0]).toEqual({ round: 2, url: "", started_at: data.next_attempt, deadline_at: data.deadline_at, ended_at: null, outcome: null, reason: "" })
      // A second re-push is refused until this round has failed too.
      expectError(yield* redeliver(client, id), 409, "BUSINESS_CONFLICT")
      yield* setStatus(id, "failed")
      expect(expectOk(yield* redeliver(client, id)).current_round).toBe(3)
    }))

  it.effect("409 BUSINESS_CONFLICT while pending, delivering or delivered, changing nothing; the request_id stays usable", () =>
    Effect.gen(function*() {
      const { client, tenant } = yield* tenantClients()
      for (const status of ["pending", "delivering", "delivered"] as const) {
        const id = yield* seedEvent(scopeOf(tenant), { status, deliveredAt: status === "delivered" ? "2026-02-01T00:00:05Z" : null })
        const before = yield* storedEvent(id)
        const requestId = randomUUID()
        const res = yield* redeliver(client, id, requestId)
        expectError(res, 409, "BUSINESS_CONFLICT")
        expect(res.json.message).toContain(status)
        expect(yield* storedEvent(id)).toEqual(before)
        // The refusal was not saved: once the round has failed, the same request_id starts the new round.
        yield* setStatus(id, "failed")
        expect(expectOk(yield* redeliver(client, id, requestId)).current_round).toBe(2)
      }
    }))

  it.effect("idempotent: a retry returns the saved result after the state moved on; another event with the same request_id is 409", () =>
    Effect.gen(function*() {
      const { client, tenant } = yield* tenantClients()
      const id = yield* seedEvent(scopeOf(tenant), failedRound)
      const other = yield* seedEvent(scopeOf(tenant), failedRound)
      const requestId = randomUUID()
      const first = yield* redeliver(client, id, requestId)
      expectOk(first)
      // The dispatcher moves on: the event is now being delivered.
      yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE events SET status = 'delivering', attempts = 1 WHERE id = ${id}`).pipe(Effect.orDie)
      // Key order and spacing are not parameters.
      const replay = yield* client.post(redeliverTarget(id), ` { "request_id" : "${requestId}" } `)
      expect(replay.status).toBe(200)
      expect(replay.text).toBe(first.text)
      expect(expectOk(yield* client.get(eventTarget(id)))).toMatchObject({ status: "delivering", attempts: 1, current_round: 2 })
      const conflict = yield* redeliver(client, other, requestId)
      expectError(conflict, 409, "IDEMPOTENCY_CONFLICT")
      expect(conflict.json.message).toMatch(/^conflict: idempotency key already used with another request/)
      expect((yield* storedEvent(other)).current_round).toBe(1)
    }))

  it.effect("two concurrent re-pushes with different request_ids: exactly one starts a round", () =>
    Effect.gen(function*() {
      const { client, tenant } = yield* tenantClients()
      for (let i = 0; i < 3; i++) {
        const id = yield* seedEvent(scopeOf(tenant), failedRound)
        const results = yield* Effect.all([redeliver(client, id), redeliver(client, id)], { concurrency: "unbounded" })
        expect(results.map((r) => r.status).sort()).toEqual([200, 409])
        expectError(results.find((r) => r.status === 409)!, 409, "BUSINESS_CONFLICT")
        expect((yield* storedEvent(id)).current_round).toBe(2)
      }
    }))

  it.effect("400 for a missing or invalid request_id, extra fields and any query", () =>
    Effect.gen(function*() {
      const { client, tenant } = yield* tenantClients()
      const id = yield* seedEvent(scopeOf(tenant), failedRound)
      for (const body of [{}, { request_id: "short" }, { request_id: 1 }, { request_id: null }, { request_id: randomUUID(), id }, "[]", "null"]) {
        expectInvalid(yield* client.post(redeliverTarget(id), body))
      }
      expectInvalid(yield* client.post(`${redeliverTarget(id)}?`, { request_id: randomUUID() }))
      expect((yield* storedEvent(id)).current_round).toBe(1)
    }))
})
