import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { type IdempotencyKey, IdempotencyStore, type TenantId } from "@collector/core"
import { Effect, Either, Layer } from "effect"
import * as PgIdempotencyStore from "./PgIdempotencyStore"
import { TestDatabaseLive } from "./testing/TestDatabase"

const TestLive = PgIdempotencyStore.layer.pipe(Layer.provideMerge(TestDatabaseLive))

const setup = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE IF NOT EXISTS effects (id serial PRIMARY KEY, label text NOT NULL)`
  const [tenant] = yield* sql<{ id: string }>`INSERT INTO tenants (name) VALUES (${`t-${Math.random()}`}) RETURNING id`
  return tenant!.id as TenantId
})

const keyFor = (tenantId: TenantId, requestId: string): IdempotencyKey => ({
  tenantId,
  network: "nile",
  operation: "test.effect",
  requestId
})

const countEffects = (label: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(sql<{ n: string }>`SELECT count(*)::text AS n FROM effects WHERE label = ${label}`, (r) => Number(r[0]!.n)))

const insertEffect = (label: string, delay = 0) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ id: number }>`INSERT INTO effects (label) VALUES (${label}) RETURNING id`
    // A server-side pause keeps the first transaction open while the duplicates arrive.
    if (delay > 0) yield* sql`SELECT pg_sleep(${delay / 1000})`
    return { _tag: "Succeeded" as const, json: JSON.stringify({ id: row!.id }) }
  })

layer(TestLive)("PgIdempotencyStore", (it) => {
  it.effect("replays the saved outcome for the same key and parameters", () =>
    Effect.gen(function*() {
      const tenantId = yield* setup
      const store = yield* IdempotencyStore
      const first = yield* store.once(keyFor(tenantId, "replay-key-0001"), "d1", insertEffect("replay"))
      const second = yield* store.once(keyFor(tenantId, "replay-key-0001"), "d1", insertEffect("replay"))
      expect(second).toEqual(first)
      expect(yield* countEffects("replay")).toBe(1)
    }))

  it.effect("rejects the same key with other parameters", () =>
    Effect.gen(function*() {
      const tenantId = yield* setup
      const store = yield* IdempotencyStore
      yield* store.once(keyFor(tenantId, "conflict-key-001"), "d1", insertEffect("conflict"))
      const again = yield* Effect.either(store.once(keyFor(tenantId, "conflict-key-001"), "d2", insertEffect("conflict")))
      expect(Either.isLeft(again) && again.left._tag).toBe("IdempotencyConflict")
      expect(yield* countEffects("conflict")).toBe(1)
    }))

  it.effect("50 concurrent duplicates produce one effect and one answer", () =>
    Effect.gen(function*() {
      const tenantId = yield* setup
      const store = yield* IdempotencyStore
      const results = yield* Effect.all(
        Array.from({ length: 50 }, () => store.once(keyFor(tenantId, "concurrent-key-1"), "d1", insertEffect("concurrent", 50))),
        { concurrency: "unbounded" }
      )
      expect(new Set(results.map((r) => r.json)).size).toBe(1)
      expect(yield* countEffects("concurrent")).toBe(1)
    }))

  it.effect("a rejection is saved but its writes are undone", () =>
    Effect.gen(function*() {
      const tenantId = yield* setup
      const store = yield* IdempotencyStore
      const rejecting = Effect.as(insertEffect("rejected"), { _tag: "Rejected" as const, json: "\"no\"" })
      const first = yield* store.once(keyFor(tenantId, "rejected-key-001"), "d1", rejecting)
      const second = yield* store.once(keyFor(tenantId, "rejected-key-001"), "d1", insertEffect("rejected"))
      expect(first).toEqual({ _tag: "Rejected", json: "\"no\"" })
      expect(second).toEqual(first)
      expect(yield* countEffects("rejected")).toBe(0)
    }))

  it.effect("a failed run keeps nothing, so a retry runs the work", () =>
    Effect.gen(function*() {
      const tenantId = yield* setup
      const store = yield* IdempotencyStore
      const failing = Effect.zipRight(insertEffect("failed"), Effect.fail("storage down" as const))
      const first = yield* Effect.either(store.once(keyFor(tenantId, "failed-key-0001"), "d1", failing))
      expect(first).toEqual(Either.left("storage down"))
      yield* store.once(keyFor(tenantId, "failed-key-0001"), "d1", insertEffect("failed"))
      expect(yield* countEffects("failed")).toBe(1)
    }))
})

