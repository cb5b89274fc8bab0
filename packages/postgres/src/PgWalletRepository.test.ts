import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { type TenantId, type TenantScope, WalletRepository } from "@collector/core"
import { Effect, Either, Layer } from "effect"
import { randomBytes } from "node:crypto"
import * as PgWalletRepository from "./PgWalletRepository"
import { TestDatabaseLive } from "./testing/TestDatabase"

const TestLive = PgWalletRepository.layer.pipe(Layer.provideMerge(TestDatabaseLive))

const newScope = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* sql<{ id: string }>`INSERT INTO tenants (name) VALUES (${`t-${randomBytes(4).toString("hex")}`}) RETURNING id`
  return { tenantId: row!.id as TenantId, network: "nile" } satisfies TenantScope
})

const insert = (scope: TenantScope, customId: string) =>
  Effect.flatMap(WalletRepository, (repo) =>
    repo.insert(scope, { customId, address: `T${randomBytes(16).toString("hex")}`, sealedKey: { keyId: "k", blob: randomBytes(60) } }))

const query = { sort: "created_at" as const, order: "desc" as const, page: 1, pageSize: 20 }

layer(TestLive)("PgWalletRepository", (it) => {
  it.effect("the unfiltered total (sharded counters) stays exact under concurrent inserts and rejected duplicates", () =>
    Effect.gen(function*() {
      const repo = yield* WalletRepository
      const scope = yield* newScope
      const other = yield* newScope
      yield* Effect.all(Array.from({ length: 40 }, (_, i) => insert(scope, `w-${i}`)), { concurrency: 16 })
      yield* Effect.all(Array.from({ length: 3 }, (_, i) => insert(other, `w-${i}`)), { concurrency: 3 })
      const duplicate = yield* Effect.either(insert(scope, "w-7"))
      expect(Either.isLeft(duplicate) && duplicate.left._tag).toBe("CustomIdTaken")
      expect((yield* repo.list(scope, { ...query, filters: {} })).total).toBe(40)
      expect((yield* repo.list(other, { ...query, filters: {} })).total).toBe(3)
      // A filtered total is counted from the rows and agrees.
      expect((yield* repo.list(scope, { ...query, filters: { address: "T" } })).total).toBe(40)
      const sql = yield* SqlClient.SqlClient
      const [counted] = yield* sql<{ n: string }>`SELECT count(*)::text AS n FROM wallets WHERE tenant_id = ${scope.tenantId}`
      expect(Number(counted!.n)).toBe(40)
    }))
})
