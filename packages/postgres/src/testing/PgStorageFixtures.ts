import { StorageFixtures } from "@collector/core/testing"
import type { TenantId, WalletId } from "@collector/core"
import { SqlClient } from "@effect/sql"
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
          INSERT INTO wallets (id, tenant_id, network, address, custom_id, balance_usdt, balance_trx, balance_block, created_at)
          OVERRIDING SYSTEM VALUE
          VALUES (${id}, ${scope.tenantId}, ${scope.network}, ${address}, ${customId},
                  ${synced ? (fields?.balanceUsdt ?? 0n).toString() : null}, ${synced ? (fields?.balanceTrx ?? 0n).toString() : null},
                  ${(fields?.balanceBlock ?? 0n).toString()}, ${fields?.createdAt ?? new Date()})`
        yield* sql`INSERT INTO wallet_keys (wallet_id, key_id, sealed_key) VALUES (${id}, ${fixtureKey.keyId}, ${fixtureKey.blob})`
        yield* sql`
          INSERT INTO wallet_counts (tenant_id, network, shard, n) VALUES (${scope.tenantId}, ${scope.network}, 0, 1)
          ON CONFLICT (tenant_id, network, shard) DO UPDATE SET n = wallet_counts.n + 1`
        return { id: id as WalletId, address, customId }
      })).pipe(Effect.orDie),
    event: (event) => insertEvents(sql, [event]).pipe(Effect.orDie),
    webhook: (scope, webhook) =>
      sql`
        INSERT INTO tenant_settings (tenant_id, network, webhook_url, webhook_enabled, webhook_updated_at)
        VALUES (${scope.tenantId}, ${scope.network}, ${webhook.url}, ${webhook.enabled}, now())
        ON CONFLICT (tenant_id, network) DO UPDATE
        SET webhook_url = excluded.webhook_url, webhook_enabled = excluded.webhook_enabled, webhook_updated_at = excluded.webhook_updated_at`.pipe(
        Effect.orDie,
        Effect.asVoid
      )
  })
})

export const layer = Layer.effect(StorageFixtures, make)
