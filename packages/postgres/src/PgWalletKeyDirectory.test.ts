import { StorageFixtures, walletKeyDirectoryContract } from "@collector/core/testing"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import { PgStorage } from "./PgStorage.js"
import * as PgStorageFixtures from "./testing/PgStorageFixtures.js"
import { TestDatabaseLive } from "./testing/TestDatabase.js"

walletKeyDirectoryContract("PostgreSQL", Layer.merge(PgStorage, PgStorageFixtures.layer).pipe(Layer.provideMerge(TestDatabaseLive)))

describe("wallet_keys (migration 0021)", () => {
  it.effect("a row holds a sealed key or a token label, never both or neither, and a label belongs to one wallet", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const fixtures = yield* StorageFixtures
      const scope = yield* fixtures.scope("nile")
      const a = yield* fixtures.wallet(scope, { key: { store: "pkcs11", label: "collector-wallet-once" } })
      const b = yield* fixtures.wallet(scope)
      const refused = (statement: Effect.Effect<unknown, unknown>) => Effect.map(Effect.exit(statement), Exit.isFailure)
      expect(yield* refused(sql`UPDATE wallet_keys SET sealed_key = '\\x01'::bytea, key_id = 'k' WHERE wallet_id = ${a.id}`)).toBe(true)
      expect(yield* refused(sql`UPDATE wallet_keys SET store = 'pkcs11' WHERE wallet_id = ${b.id}`)).toBe(true)
      expect(yield* refused(sql`UPDATE wallet_keys SET store = 'kms' WHERE wallet_id = ${b.id}`)).toBe(true)
      expect(yield* refused(sql`UPDATE wallet_keys SET store = 'pkcs11', key_id = NULL, sealed_key = NULL, key_label = 'collector-wallet-once' WHERE wallet_id = ${b.id}`)).toBe(true)
      expect(yield* refused(sql`UPDATE wallet_keys SET store = 'pkcs11', key_id = NULL, sealed_key = NULL, key_label = 'collector-wallet-other' WHERE wallet_id = ${b.id}`)).toBe(false)
    }).pipe(Effect.provide(Layer.merge(PgStorage, PgStorageFixtures.layer).pipe(Layer.provideMerge(TestDatabaseLive)))))
})
