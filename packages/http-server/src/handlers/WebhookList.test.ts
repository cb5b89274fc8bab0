import { expect, layer } from "@effect/vitest"
import { seedAttempt, seedEvent, type SeedDeliveryStatus, type SeedEventType, seedRound } from "@collector/postgres/testing"
import { Effect } from "effect"
import { expectOk } from "../testing/Assertions.js"
import { TestServerLive } from "../testing/TestServer.js"
import { attemptsTarget, eventKeys, roundsTarget, scopeOf, webhooksTarget } from "../testing/Webhooks.js"
import { type Client, expectInvalid, tenantClients } from "../testing/Wallets.js"

interface ListData {
  readonly network: string
  readonly event_id?: string
  readonly items: ReadonlyArray<any>
  readonly total: number
  readonly page: number
  readonly page_size: number
}

const get = (client: Client, target: string) => Effect.map(client.get(target), (res) => expectOk(res) as ListData)
const idsOf = (data: ListData) => data.items.map((e) => e.id as string)

const types: ReadonlyArray<SeedEventType> = ["deposit.confirmed", "deposit.reverted", "sweep.succeeded", "sweep.failed", "sweep.cancelled"]
const statuses: ReadonlyArray<SeedDeliveryStatus> = ["pending", "delivering", "delivered", "failed"]

layer(TestServerLive({ rateBurst: 1000, ratePerSecond: 1000 }), { excludeTestServices: true })("notification list, rounds and attempts", (it) => {
  it.effect("event ID descending, items are the full detail, paging and filters", () =>
    Effect.gen(function*() {
      const { client, tenant } = yield* tenantClients()
      expect(yield* get(client, webhooksTarget())).toEqual({ network: "nile", items: [], total: 0, page: 1, page_size: 20 })
      // 25 events: type i % 5, status i % 4, so every pair of filters has matches.
      const ids: Array<string> = []
      for (let i = 0; i < 25; i++) ids.push(yield* seedEvent(scopeOf(tenant), { eventType: types[i % 5], status: statuses[i % 4] }))
      const desc = [...ids].reverse()
      const first = yield* get(client, webhooksTarget())
      expect(Object.keys(first)).toEqual(["network", "items", "total", "page", "page_size"])
      expect([idsOf(first), first.total, first.page, first.page_size]).toEqual([desc.slice(0, 20), 25, 1, 20])
      for (const item of first.items) expect(Object.keys(item)).toEqual(eventKeys)
      expect(first.items[0]).toEqual(expectOk(yield* client.get(`/open/v1/webhooks/${desc[0]}`)))
      expect(idsOf(yield* get(client, webhooksTarget({ page: "2" })))).toEqual(desc.slice(20))
      expect(idsOf(yield* get(client, webhooksTarget({ page: "3", page_size: "7" })))).toEqual(desc.slice(14, 21))
      expect(yield* get(client, webhooksTarget({ page: "4", page_size: "10" }))).toEqual({ network: "nile", items: [], total: 25, page: 4, page_size: 10 })
      expect(idsOf(yield* get(client, webhooksTarget({ page: "", page_size: "", event_type: "", status: "" })))).toEqual(desc.slice(0, 20))
      for (const [t, type] of types.entries()) {
        const data = yield* get(client, webhooksTarget({ event_type: type, page_size: "100" }))
        const expected = desc.filter((_, j) => (24 - j) % 5 === t)
        expect([idsOf(data), data.total], type).toEqual([expected, expected.length])
      }
      for (const [s, status] of statuses.entries()) {
        const data = yield* get(client, webhooksTarget({ status, page_size: "100" }))
        expect(idsOf(data), status).toEqual(desc.filter((_, j) => (24 - j) % 4 === s))
        expect(data.items.every((e) => e.status === status)).toBe(true)
      }
      const both = yield* get(client, webhooksTarget({ event_type: "sweep.failed", status: "failed", page_size: "1" }))
      // i % 5 === 3 and i % 4 === 3: i = 3, 23.
      expect([idsOf(both), both.total]).toEqual([[ids[23]], 2])
    }))

  it.effect("only the calling tenant's events on the calling network", () =>
    Effect.gen(function*() {
      const { clients, tenant } = yield* tenantClients(["nile", "main"])
      const [nile, main] = clients as [Client, Client]
      const other = yield* tenantClients()
      const onNile = yield* seedEvent(scopeOf(tenant, "nile"))
      const onMain = yield* seedEvent(scopeOf(tenant, "main"))
      yield* seedEvent(scopeOf(other.tenant))
      expect(idsOf(yield* get(nile, webhooksTarget()))).toEqual([onNile])
      const mainData = yield* get(main, webhooksTarget())
      expect([mainData.network, idsOf(mainData)]).toEqual(["main", [onMain]])
    }))

  it.effect("unknown filter values, bad paging and unknown or repeated keys are 400", () =>
    Effect.gen(function*() {
      const { client, tenant } = yield* tenantClients()
      const id = yield* seedEvent(scopeOf(tenant))
      const typeMessage = "invalid request: event_type must be one of deposit.confirmed, deposit.reverted, sweep.succeeded, sweep.failed, sweep.cancelled"
      for (const bad of ["deposit", "DEPOSIT.CONFIRMED", "deposit.confirmed ", "sweep.*", "%"]) {
        expectInvalid(yield* client.get(webhooksTarget({ event_type: bad })), typeMessage)
      }
      for (const bad of ["Failed", "abnormal", "succeeded", " pending"]) {
        expectInvalid(yield* client.get(webhooksTarget({ status: bad })), "invalid request: status must be one of pending, delivering, delivered, failed")
      }
      for (const target of [webhooksTarget, (p: Record<string, string>) => roundsTarget(id, p), (p: Record<string, string>) => attemptsTarget(id, p)]) {
        for (const paging of [{ page: "0" }, { page: "01" }, { page_size: "101" }, { page_size: "x" }] as ReadonlyArray<Record<string, string>>) {
          expectInvalid(yield* client.get(target(paging)), "invalid request: invalid pagination")
        }
        expectInvalid(yield* client.get(target({ network: "nile" })))
        expectInvalid(yield* client.get(`${target({ page: "1" })}&page=2`))
      }
      expectInvalid(yield* client.get(webhooksTarget({ sort: "id" })))
      expectInvalid(yield* client.get(roundsTarget(id, { round: "1" })))
      for (const round of ["0", "01", "-1", "x", "1.5", "9999999999"]) {
        expectInvalid(yield* client.get(attemptsTarget(id, { round })), "invalid request: round must be a positive integer")
      }
    }))

  it.effect("rounds: newest first, with the current round listed before the dispatcher starts it", () =>
    Effect.gen(function*() {
      const { client, tenant } = yield* tenantClients()
      const fresh = yield* seedEvent(scopeOf(tenant), { createdAt: "2026-02-01T00:00:00Z", deadlineAt: "2026-02-02T00:00:00Z" })
      const unstarted = { round: 1, url: "", started_at: "2026-02-01T00:00:00.000Z", deadline_at: "2026-02-02T00:00:00.000Z", ended_at: null, outcome: null, reason: "" }
      expect(yield* get(client, roundsTarget(fresh))).toEqual({ network: "nile", event_id: fresh, items: [unstarted], total: 1, page: 1, page_size: 20 })

      // Round 3 opened by a re-push and not yet started; rounds 1 and 2 ended as failed.
      const id = yield* seedEvent(scopeOf(tenant), {
        status: "pending", currentRound: 3, roundUrl: null, roundStartedAt: "2026-02-05T00:00:00Z", deadlineAt: "2026-02-06T00:00:00Z"
      })
      yield* seedRound(id, { round: 1, url: "https://a.example.com/h", startedAt: "2026-02-01T00:00:00Z", endedAt: "2026-02-01T20:00:00.5Z", outcome: "failed", reason: "20 attempts failed" })
      yield* seedRound(id, { round: 2, url: "", startedAt: "2026-02-03T00:00:00Z", endedAt: "2026-02-03T00:00:00Z", outcome: "failed", reason: "webhook disabled" })
      const rounds = yield* get(client, roundsTarget(id))
      expect(rounds).toEqual({
        network: "nile", event_id: id, total: 3, page: 1, page_size: 20, items: [
          { round: 3, url: "", started_at: "2026-02-05T00:00:00.000Z", deadline_at: "2026-02-06T00:00:00.000Z", ended_at: null, outcome: null, reason: "" },
          { round: 2, url: "", started_at: "2026-02-03T00:00:00.000Z", deadline_at: "2026-02-04T00:00:00.000Z", ended_at: "2026-02-03T00:00:00.000Z", outcome: "failed", reason: "webhook disabled" },
          { round: 1, url: "https://a.example.com/h", started_at: "2026-02-01T00:00:00.000Z", deadline_at: "2026-02-02T00:00:00.000Z", ended_at: "2026-02-01T20:00:00.500Z", outcome: "failed", reason: "20 attempts failed" }
        ]
      })
      // Once the dispatcher has stored the current round, that row is shown instead.
      yield* seedRound(id, { round: 3, url: "https://b.example.com/h", startedAt: "2026-02-05T00:00:01Z" })
      const started = yield* get(client, roundsTarget(id, { page_size: "2" }))
      expect([started.total, started.items.map((r) => [r.round, r.url, r.started_at, r.outcome])]).toEqual([3, [[3, "https://b.example.com/h", "2026-02-05T00:00:01.000Z", null], [2, "", "2026-02-03T00:00:00.000Z", "failed"]]])
      expect((yield* get(client, roundsTarget(id, { page: "2", page_size: "2" }))).items.map((r) => r.round)).toEqual([1])
    }))

  it.effect("attempts: newest first, every member, a round filter and paging", () =>
    Effect.gen(function*() {
      const { client, tenant } = yield* tenantClients()
      const id = yield* seedEvent(scopeOf(tenant), { status: "delivering", currentRound: 2 })
      expect(yield* get(client, attemptsTarget(id))).toEqual({ network: "nile", event_id: id, items: [], total: 0, page: 1, page_size: 20 })
      yield* seedAttempt(id, {
        round: 1, attempt: 1, url: "https://a.example.com/h", startedAt: "2026-02-01T00:00:00Z", endedAt: "2026-02-01T00:00:10Z",
        durationMs: 10000, httpStatus: null, error: "timeout after 10 s", outcome: "failed"
      })
      yield* seedAttempt(id, {
        round: 1, attempt: 2, startedAt: "2026-02-01T00:00:11Z", endedAt: "2026-02-01T00:00:11.2Z", durationMs: 200, httpStatus: 500,
        responseExcerpt: "<html>oops</html>", error: "HTTP 500", outcome: "failed"
      })
      yield* seedAttempt(id, { round: 2, attempt: 1, url: "https://b.example.com/h", startedAt: "2026-02-03T00:00:00Z" })
      const all = yield* get(client, attemptsTarget(id))
      expect(all.total).toBe(3)
      expect(all.items.map((a) => [a.round, a.attempt])).toEqual([[2, 1], [1, 2], [1, 1]])
      expect(all.items[0]).toEqual({
        round: 2, attempt: 1, url: "https://b.example.com/h", started_at: "2026-02-03T00:00:00.000Z", ended_at: null, duration_ms: null,
        http_status: null, response_excerpt: "", error: "", outcome: null
      })
      expect(all.items[1]).toEqual({
        round: 1, attempt: 2, url: "https://hooks.example.com/in", started_at: "2026-02-01T00:00:11.000Z", ended_at: "2026-02-01T00:00:11.200Z",
        duration_ms: 200, http_status: 500, response_excerpt: "<html>oops</html>", error: "HTTP 500", outcome: "failed"
      })
      expect(all.items[2]).toMatchObject({ http_status: null, error: "timeout after 10 s", duration_ms: 10000, outcome: "failed" })
      const first = yield* get(client, attemptsTarget(id, { round: "1" }))
      expect([first.total, first.items.map((a) => a.attempt)]).toEqual([2, [2, 1]])
      expect((yield* get(client, attemptsTarget(id, { round: "3" }))).total).toBe(0)
      const paged = yield* get(client, attemptsTarget(id, { page: "2", page_size: "2" }))
      expect([paged.total, paged.items.map((a) => [a.round, a.attempt])]).toEqual([3, [[1, 1]]])
      expect(yield* get(client, attemptsTarget(id, { page: "9" }))).toEqual({ network: "nile", event_id: id, items: [], total: 3, page: 9, page_size: 20 })
    }))
})
