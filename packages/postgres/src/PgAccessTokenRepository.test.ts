import type { Kernel } from "@collector/core"
import { accessTokenRepositoryContract, StorageFixtures } from "@collector/core/testing"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { randomBytes } from "node:crypto"
import * as PgAccessTokenRepository from "./PgAccessTokenRepository.js"
import { PgStorage } from "./PgStorage.js"
import * as PgStorageFixtures from "./testing/PgStorageFixtures.js"
import { TestDatabaseLive } from "./testing/TestDatabase.js"

accessTokenRepositoryContract("PostgreSQL", Layer.merge(PgStorage, PgStorageFixtures.layer).pipe(Layer.provideMerge(TestDatabaseLive)))

describe("PgAccessTokenRepository.insert", () => {
  it.layer(PgStorageFixtures.layer.pipe(Layer.provideMerge(TestDatabaseLive)))((it) => {
    it.effect("commits without waiting for the WAL flush, and only that commit: the setting ends with its transaction", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const repo = yield* PgAccessTokenRepository.make
        const { appId } = yield* Effect.flatMap(StorageFixtures, (fixtures) => fixtures.scope("nile"))
        const inside = yield* sql.withTransaction(
          Effect.zipRight(repo.insert(randomBytes(32), appId as Kernel.AppId, new Date(Date.now() + 60_000)), sql<{ synchronous_commit: string }>`SHOW synchronous_commit`)
        )
        expect(inside[0]?.synchronous_commit).toBe("off")
        const after = yield* sql.reserve.pipe(Effect.flatMap((connection) => connection.execute("SHOW synchronous_commit", [], undefined)), Effect.scoped)
        expect((after as ReadonlyArray<{ synchronous_commit: string }>)[0]?.synchronous_commit).not.toBe("off")
      }))
  })
})
