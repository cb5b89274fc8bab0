import { expect, layer } from "@effect/vitest"
import { seedDeposit } from "@collector/postgres/testing"
import { seedAttempt, seedEvent, seedRound, sweepBody } from "@collector/postgres/testing"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { expectError, expectOk } from "../testing/Assertions.js"
import { seedWalletOf } from "../testing/Deposits.js"
import { TestServerLive } from "../testing/TestServer.js"
import { eventKeys, eventTarget, redeliverTarget, roundRowCount, roundsTarget, attemptsTarget, scopeOf, storedEvent } from "../testing/Webhooks.js"
import { type Client, tenantClients } from "../testing/Wallets.js"

layer(TestServerLive({ rateBurst: 1000, ratePerSecond: 1000 }), { excludeTestServices: true })("notification detail", (it) => {
  it.effect("every member in its format; the payload is the stored object, byte for byte", () =>
    Effect.gen(function*() {
      const { client, tenant } = yield* tenantClients()
      const [wallet] = yield* client.createWallets(1, "shop")
      const deposit = yield* seedDeposit(seedWalletOf(tenant, "nile", wallet!), { amount: "7000000" })
      const record = yield* client.get(`/open/v1/deposits/${deposit.id}`)
      const recordText = record.text.slice(`{"code":0,"message":"","data":`.length, -1)
      const id = yield* seedEvent(scopeOf(tenant), {
        id: deposit.eventId, eventType: "deposit.confirmed", depositId: deposit.id, revision: 1, payload: recordText,
        status: "delivering", attempts: 3, currentRound: 2, nextAttempt: "2026-02-03T04:05:36.5+00:00",
        deadlineAt: "2026-02-04T04:05:06Z", lastError: "HTTP 502 from receiver", createdAt: "2026-02-01T01:02:03.456Z",
        roundUrl: "https://hooks.example.com/in", roundStartedAt: "2026-02-03T04:05:06Z", claimedBy: "worker-1"
      })
      expect(id).toBe(deposit.eventId)
      const res = yield* client.get(eventTarget(id))
      const data = expectOk(res)
      expect(Object.keys(data)).toEqual(eventKeys)
      expect(data).toEqual({
        network: "nile", id, event_type: "deposit.confirmed", status: "delivering", attempts: 3, current_round: 2,
        next_attempt: "2026-02-03T04:05:36.500Z", deadline_at: "2026-02-04T04:05:06.000Z", last_error: "HTTP 502 from receiver",
        created_at: "2026-02-01T01:02:03.456Z", delivered_at: null, payload: JSON.parse(recordText)
      })
      expect(data.payload.event_id).toBe(id)
      // The stored text is returned as the same bytes: no member reordered, added or dropped.
      expect(res.text.endsWith(`"payload":${recordText}}}`)).toBe(true)

      const delivered = yield* seedEvent(scopeOf(tenant), {
        eventType: "sweep.failed", status: "delivered", attempts: 1, nextAttempt: null, deliveredAt: "2026-02-01T00:00:01.25Z",
        createdAt: "2026-02-01T00:00:00Z"
      })
      expect(expectOk(yield* client.get(eventTarget(delivered)))).toEqual({
        network: "nile", id: delivered, event_type: "sweep.failed", status: "delivered", attempts: 1, current_round: 1,
        next_attempt: null, deadline_at: "2026-02-02T00:00:00.000Z", last_error: "", created_at: "2026-02-01T00:00:00.000Z",
        delivered_at: "2026-02-01T00:00:01.250Z", payload: sweepBody(delivered, "sweep.failed", "nile")
      })
    }))

  it.effect("reading the detail, rounds and attempts never delivers, claims or opens a round", () =>
    Effect.gen(function*() {
      const { client, tenant } = yield* tenantClients()
      const id = yield* seedEvent(scopeOf(tenant), { status: "pending", nextAttempt: "2000-01-01T00:00:00Z" })
      const before = yield* storedEvent(id)
      for (let i = 0; i < 3; i++) {
        expectOk(yield* client.get(eventTarget(id)))
        expectOk(yield* client.get(roundsTarget(id)))
        expectOk(yield* client.get(attemptsTarget(id)))
      }
      expect(yield* storedEvent(id)).toEqual(before)
      expect(yield* roundRowCount(id)).toBe(0)
    }))

  it.effect("404 RESOURCE_NOT_FOUND for another tenant's, the other network's or no event, on all five operations", () =>
    Effect.gen(function*() {
      const { clients, tenant } = yield* tenantClients(["nile", "main"])
      const [nile, main] = clients as [Client, Client]
      const other = (yield* tenantClients()).client
      const id = yield* seedEvent(scopeOf(tenant), { status: "failed", nextAttempt: null })
      yield* seedRound(id, { round: 1 })
      yield* seedAttempt(id, { round: 1, attempt: 1 })
      expect(expectOk(yield* nile.get(eventTarget(id))).id).toBe(id)
      const missing = String(BigInt(id) + 1000n)
      for (const [client, target] of [[other, id], [main, id], [nile, missing], [nile, "9223372036854775807"]] as const) {
        expectError(yield* client.get(eventTarget(target)), 404, "RESOURCE_NOT_FOUND")
        expectError(yield* client.get(roundsTarget(target)), 404, "RESOURCE_NOT_FOUND")
        expectError(yield* client.get(attemptsTarget(target)), 404, "RESOURCE_NOT_FOUND")
        expectError(yield* client.post(redeliverTarget(target), { request_id: randomUUID() }), 404, "RESOURCE_NOT_FOUND")
      }
      // Neither the other tenant nor the other network could start a round on it.
      expect((yield* storedEvent(id)).current_round).toBe(1)
    }))

  it.effect("400 for an ID that is not a canonical positive int64, and for any query on the detail", () =>
    Effect.gen(function*() {
      const { client, tenant } = yield* tenantClients()
      const id = yield* seedEvent(scopeOf(tenant))
      for (const bad of ["0", "01", "-1", "+1", "abc", "1.0", "1e3", "9223372036854775808", "99999999999999999999", `0${id}`]) {
        expectError(yield* client.get(eventTarget(bad)), 400, "INVALID_ARGUMENT")
        expectError(yield* client.get(roundsTarget(bad)), 400, "INVALID_ARGUMENT")
        expectError(yield* client.get(attemptsTarget(bad)), 400, "INVALID_ARGUMENT")
        expectError(yield* client.post(redeliverTarget(bad), { request_id: randomUUID() }), 400, "INVALID_ARGUMENT")
      }
      for (const query of ["?network=nile", "?", "?page=1", `?id=${id}`, "?a=1&a=1"]) {
        expectError(yield* client.get(`${eventTarget(id)}${query}`), 400, "INVALID_ARGUMENT")
      }
    }))
})
