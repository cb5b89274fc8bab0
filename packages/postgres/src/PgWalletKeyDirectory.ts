import { type Kernel, Wallets } from "@collector/core"
import { SqlClient } from "@effect/sql"
import { type Context, Effect, Layer } from "effect"

interface Row {
  readonly id: string
  readonly address: string
  readonly custom_id: string
  readonly store: Wallets.KeyStoreName
  readonly key_label: string | null
}

export const make: Effect.Effect<Context.Tag.Service<typeof Wallets.WalletKeyDirectory>, never, SqlClient.SqlClient> = Effect.map(SqlClient.SqlClient, (sql) =>
  Wallets.WalletKeyDirectory.of({
    // Only the store and label columns: a sealed key never leaves the table through this port.
    list: (scope, store) =>
      sql<Row>`
        SELECT w.id::text AS id, w.address, w.custom_id, k.store, k.key_label
        FROM wallets w JOIN wallet_keys k ON k.wallet_id = w.id
        WHERE w.tenant_id = ${scope.tenantId} AND w.network = ${scope.network}
          AND (${store ?? null}::text IS NULL OR k.store = ${store ?? null})
        ORDER BY w.id`.pipe(
        Effect.orDie,
        Effect.map((rows) =>
          rows.map((row) => ({ walletId: row.id as Kernel.WalletId, address: row.address, customId: row.custom_id, store: row.store, label: row.key_label }))
        )
      )
  }))

export const layer = Layer.effect(Wallets.WalletKeyDirectory, make)
