import { claimRequest, deliveryLedgerContract } from "@collector/core/testing"
import { Notifications } from "@collector/core"
import { SqlClient } from "@effect/sql"
import { expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as PgDeliveryLedger from "./PgDeliveryLedger.js"
import { PgStorage } from "./PgStorage.js"
import * as PgStorageFixtures from "./testing/PgStorageFixtures.js"
import { seedAttempt, seedEvent, seedRound } from "./testing/SeedEvents.js"
import { TestDatabaseLive } from "./testing/TestDatabase.js"

deliveryLedgerContract("PostgreSQL", Layer.merge(PgStorage, PgStorageFixtures.layer).pipe(Layer.provideMerge(TestDatabaseLive)))

const url = "https://hooks.example.com/in"
const at = (seconds: number) => new Date(Date.UTC(2026, 1, 1) + seconds * 1000)

// The column's default, for writers that do not know the mark: not a contract of the port.
it.scoped("an attempt written without the sending mark (a worker of the previous version) is taken over as sent", () =>
  Effect.provide(
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const [tenant] = yield* sql<{ id: string }>`INSERT INTO tenants (name) VALUES ('legacy') RETURNING id::text`
      const scope = { tenantId: tenant!.id, network: "nile" } as const
      const startedAt = at(0).toISOString()
      const id = yield* seedEvent(scope, {
        status: "delivering", attempts: 1, createdAt: startedAt, roundUrl: url, roundStartedAt: startedAt,
        claimedBy: "old-worker", claimedUntil: at(60).toISOString()
      })
      yield* seedRound(id, { round: 1, url, startedAt })
      yield* seedAttempt(id, { round: 1, attempt: 1, url, startedAt })
      const [taken] = yield* Effect.flatMap(Notifications.DeliveryLedger, (ledger) => ledger.claimDue(claimRequest("b", at(62))))
      expect(taken).toMatchObject({ eventId: id, started: null, openAttempt: { attempt: 1, startedAt: at(0), sent: true } })
    }).pipe(Effect.orDie),
    PgDeliveryLedger.layer.pipe(Layer.provideMerge(TestDatabaseLive))
  ))

// How the batch statements read: each item's open attempt is found by its key. A batch the
// planner cannot size (it took jsonb_to_recordset for 100 rows) had it scan every attempt
// recorded, in each statement, once there were a few hundred (the benchmark: 641 blocks an outcome write).
it.scoped("the sending marks and the outcomes of a batch find its attempts by key, not by scanning every attempt", () =>
  Effect.provide(
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const ledger = yield* Notifications.DeliveryLedger
      const [tenant] = yield* sql<{ id: string }>`INSERT INTO tenants (name) VALUES ('busy') RETURNING id::text`
      const scope = { tenantId: tenant!.id, network: "nile" } as const
      const startedAt = at(0).toISOString()
      const past = yield* seedEvent(scope, { status: "delivered", attempts: 1 })
      // Statistics from before the attempts were recorded, as autovacuum leaves them while a backlog is delivered.
      yield* sql`ANALYZE delivery_attempts`
      yield* sql`
        INSERT INTO delivery_attempts (event_id, round, attempt, url, started_at, ended_at, outcome)
        SELECT ${past}, g, 1, ${url}, ${startedAt}::timestamptz, ${startedAt}::timestamptz, 'failed' FROM generate_series(1, 300) g`
      const held = yield* Effect.forEach([1, 2, 3], () =>
        Effect.gen(function*() {
          const id = yield* seedEvent(scope, {
            status: "delivering", attempts: 1, roundUrl: url, roundStartedAt: startedAt, claimedBy: "w", claimedUntil: at(60).toISOString()
          })
          yield* seedRound(id, { round: 1, url, startedAt })
          yield* seedAttempt(id, { round: 1, attempt: 1, url, startedAt })
          return { claim: { holder: "w", eventId: id, round: 1 }, attempt: 1 }
        }))
      const scans = yield* sql.withTransaction(Effect.gen(function*() {
        expect(yield* ledger.markSending(held, at(1))).toHaveLength(3)
        yield* ledger.finishAttempts(held.map((h) => ({
          ...h,
          record: { endedAt: at(2), durationMs: 1000, httpStatus: 200, responseExcerpt: "{\"code\":0}", error: "", delivered: true },
          next: { _tag: "Delivered" as const }
        })))
        return yield* sql<{ seq_scan: number }>`SELECT seq_scan::int FROM pg_stat_xact_user_tables WHERE relname = 'delivery_attempts'`
      }))
      expect(scans[0]!.seq_scan).toBe(0)
      const closed = yield* sql<{ n: number }>`
        SELECT count(*)::int AS n FROM delivery_attempts WHERE event_id IN ${sql.in(held.map((h) => h.claim.eventId))} AND outcome = 'delivered'`
      expect(closed[0]!.n).toBe(3)
    }).pipe(Effect.orDie),
    PgDeliveryLedger.layer.pipe(Layer.provideMerge(TestDatabaseLive))
  ))
