import { claimRequest, deliveryLedgerContract } from "@collector/core/testing"
import { DeliveryLedger } from "@collector/core"
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
      const [taken] = yield* Effect.flatMap(DeliveryLedger, (ledger) => ledger.claimDue(claimRequest("b", at(62))))
      expect(taken).toMatchObject({ eventId: id, started: null, openAttempt: { attempt: 1, startedAt: at(0), sent: true } })
    }).pipe(Effect.orDie),
    PgDeliveryLedger.layer.pipe(Layer.provideMerge(TestDatabaseLive))
  ))
