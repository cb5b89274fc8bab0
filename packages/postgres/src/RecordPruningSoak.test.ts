import { Idempotency, type Kernel, Retention, Tenants } from "@collector/core"
import { StorageFixtures } from "@collector/core/testing"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Layer } from "effect"
import { randomBytes } from "node:crypto"
import { PgTestStorage } from "./testing/PgTestStorage.js"

const settings = { interval: Duration.seconds(1), batchSize: 40, maxBatchesPerPass: 5, idempotencyRetention: Duration.millis(300) }

const rows = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.map(
    sql<{ tokens: string; records: string }>`SELECT (SELECT count(*) FROM access_tokens)::text AS tokens, (SELECT count(*) FROM idempotency_records)::text AS records`,
    ([row]) => ({ tokens: Number(row!.tokens), records: Number(row!.records) })
  ))

layer(Layer.provideMerge(Retention.RecordPruning.layer(settings), PgTestStorage), { excludeTestServices: true })("record pruning (PostgreSQL)", (it) => {
  it.effect("under a steady stream of tokens and writes, the worker's passes keep both tables flat", () =>
    Effect.gen(function*() {
      const tokens = yield* Tenants.AccessTokenRepository
      const idempotency = yield* Idempotency.IdempotencyStore
      const pruning = yield* Retention.RecordPruning
      const { appId, tenantId } = yield* (yield* StorageFixtures).scope("nile")
      const sizes: Array<{ tokens: number; records: number }> = []
      // 15 rounds of 60 short-lived tokens and 60 idempotent writes, a pass after each: 900 of
      // each in all, where only the last round's may still be live.
      for (let round = 0; round < 15; round++) {
        yield* Effect.forEach(Array.from({ length: 60 }, (_, i) => i), (i) =>
          Effect.zipRight(
            tokens.insert(randomBytes(32), appId as Kernel.AppId, new Date(Date.now() + 100)),
            idempotency.once(
              { tenantId, network: "nile", operation: "soak", requestId: `soak-${round}-${i}` },
              "d",
              Effect.succeed({ _tag: "Succeeded" as const, json: "{}" })
            )
          ), { concurrency: 8 })
        yield* Effect.sleep("320 millis")
        yield* pruning.pruneOnce
        sizes.push(yield* rows)
      }
      // Each pass may delete up to 200 rows a table, more than one round adds: nothing is left
      // behind, so the last sizes are no larger than the first.
      expect(Math.max(...sizes.map((s) => s.tokens))).toBeLessThanOrEqual(60)
      expect(Math.max(...sizes.map((s) => s.records))).toBeLessThanOrEqual(60)
      expect(sizes.at(-1)).toEqual({ tokens: 0, records: 0 })
    }), { timeout: 60_000 })
})
