import { StorageFixtures } from "@collector/core/testing"
import type { EventType, TenantId, WalletId } from "@collector/core"
import { SqlClient, SqlError } from "@effect/sql"
import { Effect, Layer } from "effect"
import { insertEvents } from "../EventOutbox"

const fixtureKey = { keyId: "fixture", blob: new Uint8Array([1, 2, 3]) }

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return StorageFixtures.of({
    scope: (network, options) =>
      sql.withTransaction(Effect.gen(function*() {
        const [tenant] = yield* sql<{ id: string }>`
          INSERT INTO tenants (name) VALUES ('fixture-' || nextval(pg_get_serial_sequence('tenants', 'id'))) RETURNING id::text AS id`
        const [app] = yield* sql<{ app_id: string }>`
          INSERT INTO apps (tenant_id, network, secret_key_id, secret_sealed, webhook_key_id, webhook_key_sealed, confirmation_rule)
          VALUES (${tenant!.id}, ${network}, ${fixtureKey.keyId}, ${fixtureKey.blob}, ${fixtureKey.keyId}, ${fixtureKey.blob},
                  ${options?.confirmationRule ?? "solidified"})
          RETURNING app_id::text AS app_id`
        return { tenantId: tenant!.id as TenantId, network, appId: app!.app_id }
      })).pipe(Effect.orDie),
    wallet: (scope, fields) =>
      sql.withTransaction(Effect.gen(function*() {
        const [{ id }] = (yield* sql<{ id: string }>`SELECT nextval(pg_get_serial_sequence('wallets', 'id'))::text AS id`) as [{ id: string }]
        const address = fields?.address ?? `TFixtureWallet${id.padStart(20, "0")}`
        const customId = fields?.customId ?? `fixture-${id}`
        const synced = (fields?.balanceBlock ?? 0n) > 0n
        yield* sql`
          INSERT INTO wallets (id, tenant_id, network, address, custom_id, balance_usdt, balance_trx, balance_block, balance_stale_from, created_at)
          OVERRIDING SYSTEM VALUE
          VALUES (${id}, ${scope.tenantId}, ${scope.network}, ${address}, ${customId},
                  ${synced ? (fields?.balanceUsdt ?? 0n).toString() : null}, ${synced ? (fields?.balanceTrx ?? 0n).toString() : null},
                  ${(fields?.balanceBlock ?? 0n).toString()}, ${fields?.balanceStaleFrom?.toString() ?? null}, ${fields?.createdAt ?? new Date()})`
        const key = fields?.sealedKey ?? fixtureKey
        yield* sql`INSERT INTO wallet_keys (wallet_id, key_id, sealed_key) VALUES (${id}, ${key.keyId}, ${key.blob})`
        yield* sql`
          INSERT INTO wallet_counts (tenant_id, network, shard, n) VALUES (${scope.tenantId}, ${scope.network}, 0, 1)
          ON CONFLICT (tenant_id, network, shard) DO UPDATE SET n = wallet_counts.n + 1`
        return { id: id as WalletId, address, customId }
      })).pipe(Effect.orDie),
    sweptWalletBooks: (walletId) =>
      sql<{ collected_usdt: string; last_collected_at: Date | null; balance_stale_from: string | null }>`
        SELECT collected_usdt::text AS collected_usdt, last_collected_at, balance_stale_from::text AS balance_stale_from
        FROM wallets WHERE id = ${walletId}`.pipe(
        Effect.orDie,
        Effect.flatMap(([row]) =>
          row === undefined ? Effect.dieMessage(`no wallet ${walletId}`) : Effect.succeed({
            collectedUsdt: BigInt(row.collected_usdt),
            lastCollectedAt: row.last_collected_at,
            balanceStaleFrom: row.balance_stale_from === null ? null : BigInt(row.balance_stale_from)
          })
        )
      ),
    scopeEvents: (scope) =>
      sql<{ id: string; event_type: EventType; deposit_id: string | null; revision: number | null; payload: string }>`
        SELECT id::text AS id, event_type, deposit_id::text AS deposit_id, revision, payload FROM events
        WHERE tenant_id = ${scope.tenantId} AND network = ${scope.network} ORDER BY events.id`.pipe(
        Effect.orDie,
        Effect.map((rows) =>
          rows.map((row) => ({ id: row.id, eventType: row.event_type, depositId: row.deposit_id, revision: row.revision, payload: row.payload }))
        )
      ),
    outboxEvent: (event) => insertEvents(sql, [event]).pipe(Effect.orDie),
    transaction: (effect) =>
      sql.withTransaction(effect).pipe(
        // The transaction's own failures are storage failures; the effect's stay its own.
        Effect.catchIf((error): error is SqlError.SqlError => error instanceof SqlError.SqlError, Effect.die)
      )
  })
})

export const layer = Layer.effect(StorageFixtures, make)
