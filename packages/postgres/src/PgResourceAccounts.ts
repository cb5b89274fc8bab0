import { SqlClient } from "@effect/sql"
import { Delegation, type Kernel } from "@collector/core"
import { Effect, Layer, Option } from "effect"
import { fromRow, toColumns, type WalletKeyRow } from "./WalletKeyRow.js"

interface ResourceAccountRow extends WalletKeyRow {
  readonly network: Kernel.Network
  readonly tenant_id: string | null
  readonly address: string
  readonly created_at: Date
}

const toAccount = (row: ResourceAccountRow): Delegation.StoredResourceAccount => ({
  network: row.network,
  tenantId: row.tenant_id === null ? null : (String(row.tenant_id) as Kernel.TenantId),
  address: row.address,
  key: fromRow(`resource account ${row.address}`, row),
  createdAt: row.created_at
})

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const cols = sql`network, tenant_id::text AS tenant_id, address, store, key_id, sealed_key, key_label, created_at`
  const find = (network: Kernel.Network, tenantId: Kernel.TenantId | null) =>
    sql<ResourceAccountRow>`
      SELECT ${cols} FROM resource_accounts
      WHERE network = ${network} AND tenant_id IS NOT DISTINCT FROM ${tenantId}::bigint`.pipe(
      Effect.orDie,
      Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toAccount))
    )
  return Delegation.ResourceAccounts.of({
    create: (account) =>
      Effect.gen(function*() {
        const key = toColumns(account.key)
        const inserted = yield* sql<ResourceAccountRow>`
          INSERT INTO resource_accounts (network, tenant_id, address, store, key_id, sealed_key, key_label, created_at)
          VALUES (${account.network}, ${account.tenantId}::bigint, ${account.address}, ${key.store}, ${key.keyId}, ${key.sealedKey},
                  ${key.keyLabel}, ${account.createdAt})
          ON CONFLICT (network, tenant_id) DO NOTHING
          RETURNING ${cols}`.pipe(Effect.orDie)
        if (inserted[0] !== undefined) return toAccount(inserted[0])
        const existing = yield* find(account.network, account.tenantId)
        return yield* Option.match(existing, {
          onNone: () => Effect.dieMessage(`resource account of ${account.network}/${account.tenantId} conflicted but is not stored`),
          onSome: (row) => Effect.fail(new Delegation.ResourceAccountExists({ existing: row }))
        })
      }),
    find,
    list: () =>
      sql<ResourceAccountRow>`SELECT ${cols} FROM resource_accounts r ORDER BY r.network, r.tenant_id NULLS FIRST`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.map(toAccount))
      )
  })
})

export const layer = Layer.effect(Delegation.ResourceAccounts, make)
