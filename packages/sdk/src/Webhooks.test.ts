import { FetchHttpClient } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Tenants } from "@collector/core"
import { ServerUrl, TestServerLive } from "@collector/http-server/testing"
import { seedAttempt, seedEvent, seedRound } from "@collector/postgres/testing"
import { Effect, Either } from "effect"
import { randomUUID } from "node:crypto"
import { makeCollectorClient } from "./CollectorEffectClient.js"
import { Conflict, NotFound } from "./index.js"

layer(TestServerLive(), { excludeTestServices: true })("CollectorClient notifications", (it) => {
  it.effect("lists, reads, inspects and re-pushes a notification through the typed client", () =>
    Effect.gen(function*() {
      const admin = yield* Tenants.TenantAdmin
      const { credentials, tenant } = yield* admin.create(`sdk-webhooks-${randomUUID().slice(0, 8)}`, ["nile", "main"])
      const url = yield* ServerUrl
      const clientFor = (network: "nile" | "main") => {
        const c = credentials.find((x) => x.network === network)!
        return makeCollectorClient({ baseUrl: url, appId: c.appId, appSecret: c.appSecret, timeout: "10 seconds" }).pipe(
          Effect.provide(FetchHttpClient.layer)
        )
      }
      const nile = yield* clientFor("nile")
      const main = yield* clientFor("main")
      const id = yield* seedEvent({ tenantId: tenant.id, network: "nile" }, {
        eventType: "sweep.cancelled", status: "failed", attempts: 20, nextAttempt: null, lastError: "HTTP 500"
      })
      yield* seedRound(id, { round: 1, endedAt: "2026-02-01T20:00:00Z", outcome: "failed", reason: "20 attempts failed" })
      yield* seedAttempt(id, { round: 1, attempt: 1, httpStatus: 500, error: "HTTP 500", outcome: "failed", durationMs: 12 })

      // Filters travel in the signed query.
      const page = yield* nile.webhooks.listEvents({ urlParams: { event_type: "sweep.cancelled", status: "failed", page_size: "5" } })
      expect({ ...page, items: page.items.map((e) => e.id) }).toEqual({ network: "nile", items: [id], total: 1, page: 1, page_size: 5 })
      const read = yield* nile.webhooks.getEvent({ path: { id } })
      expect(read).toEqual(page.items[0])
      expect(read.payload).toMatchObject({ event_id: id, task_id: id, status: "cancelled" })
      const rounds = yield* nile.webhooks.listRounds({ path: { id }, urlParams: {} })
      expect(rounds.items.map((r) => [r.round, r.outcome])).toEqual([[1, "failed"]])
      const attempts = yield* nile.webhooks.listAttempts({ path: { id }, urlParams: { round: "1" } })
      expect(attempts.items.map((a) => [a.attempt, a.http_status, a.duration_ms])).toEqual([[1, 500, 12]])

      const requestId = randomUUID()
      const again = yield* nile.webhooks.redeliver({ path: { id }, payload: { request_id: requestId } })
      expect([again.id, again.status, again.current_round, again.attempts, again.payload]).toEqual([id, "pending", 2, 0, read.payload])
      // A retry after a lost answer returns the saved result.
      expect(yield* nile.webhooks.redeliver({ path: { id }, payload: { request_id: requestId } })).toEqual(again)
      const busy = yield* Effect.either(nile.webhooks.redeliver({ path: { id }, payload: { request_id: randomUUID() } }))
      expect(Either.isLeft(busy) && busy.left instanceof Conflict && busy.left.error_code).toBe("BUSINESS_CONFLICT")
      const missing = yield* Effect.either(main.webhooks.getEvent({ path: { id } }))
      expect(Either.isLeft(missing) && missing.left instanceof NotFound && missing.left.error_code).toBe("RESOURCE_NOT_FOUND")
    }))
})
