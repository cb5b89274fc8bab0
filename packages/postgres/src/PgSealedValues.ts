import { type Kernel, Secrets } from "@collector/core"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"

interface SealedRow {
  readonly row_id: string
  readonly key_id: string
  readonly sealed: Uint8Array
  readonly tenant_id: string | null
  readonly network: string | null
  readonly address: string | null
}

const ownerOf = (column: Secrets.SealedColumn, row: SealedRow): Secrets.SealedOwner => {
  switch (column) {
    case "master_key_check.sealed":
      return { _tag: "KeyCheck" }
    case "apps.secret_sealed":
      return { _tag: "AppSecret", tenantId: row.tenant_id as Kernel.TenantId, network: row.network as Kernel.Network }
    case "apps.webhook_key_sealed":
      return { _tag: "WebhookKey", tenantId: row.tenant_id as Kernel.TenantId, network: row.network as Kernel.Network }
    case "wallet_keys.sealed_key":
      return { _tag: "WalletKey", address: row.address! }
    case "resource_accounts.sealed_key":
      return { _tag: "ResourceAccountKey", address: row.address! }
  }
}

interface ProgressRow {
  readonly key_id: string
  readonly after_column: Secrets.SealedColumn | null
  readonly after_row: string | null
  readonly resealed: string
  readonly current: string
  readonly changed: string
  readonly unreadable: string
}

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /** One column's values after `after` (a row id), by row id; one statement per column, each on its index. */
  const columnPage = (column: Secrets.SealedColumn, after: string, limit: number) => {
    switch (column) {
      case "master_key_check.sealed":
        return sql<SealedRow>`
          SELECT id::text AS row_id, key_id, sealed, NULL AS tenant_id, NULL AS network, NULL AS address
          FROM master_key_check WHERE id > ${after} ORDER BY id LIMIT ${limit}`
      case "apps.secret_sealed":
        return sql<SealedRow>`
          SELECT app_id::text AS row_id, secret_key_id AS key_id, secret_sealed AS sealed, tenant_id::text AS tenant_id, network, NULL AS address
          FROM apps WHERE app_id > ${after} ORDER BY app_id LIMIT ${limit}`
      case "apps.webhook_key_sealed":
        return sql<SealedRow>`
          SELECT app_id::text AS row_id, webhook_key_id AS key_id, webhook_key_sealed AS sealed, tenant_id::text AS tenant_id, network, NULL AS address
          FROM apps WHERE app_id > ${after} ORDER BY app_id LIMIT ${limit}`
      case "wallet_keys.sealed_key":
        return sql<SealedRow>`
          SELECT k.wallet_id::text AS row_id, k.key_id, k.sealed_key AS sealed, NULL AS tenant_id, NULL AS network, w.address
          FROM wallet_keys k JOIN wallets w ON w.id = k.wallet_id
          WHERE k.wallet_id > ${after} AND k.store = 'local' ORDER BY k.wallet_id LIMIT ${limit}`
      case "resource_accounts.sealed_key":
        return sql<SealedRow>`
          SELECT id::text AS row_id, key_id, sealed_key AS sealed, NULL AS tenant_id, NULL AS network, address
          FROM resource_accounts WHERE id > ${after} AND store = 'local' ORDER BY id LIMIT ${limit}`
    }
  }

  const page = (after: Secrets.SealedPosition | null, limit: number) =>
    Effect.gen(function*() {
      const found: Array<Secrets.SealedEntry> = []
      const from = after === null ? 0 : Secrets.sealedColumns.indexOf(after.column)
      for (const column of Secrets.sealedColumns.slice(from)) {
        // Row ids are positive: 0 is before every row of a column the walk enters afresh.
        const rows = yield* columnPage(column, after !== null && column === after.column ? after.rowId : "0", limit - found.length)
        for (const row of rows) {
          found.push({
            position: { column, rowId: row.row_id },
            owner: ownerOf(column, row),
            sealed: { keyId: row.key_id, blob: new Uint8Array(row.sealed) }
          })
        }
        if (found.length >= limit) break
      }
      return found as ReadonlyArray<Secrets.SealedEntry>
    }).pipe(Effect.orDie)

  const replace = (position: Secrets.SealedPosition, expected: Secrets.Sealed, next: Secrets.Sealed) => {
    const row = position.rowId
    const statement = (() => {
      switch (position.column) {
        case "master_key_check.sealed":
          return sql`
            UPDATE master_key_check SET key_id = ${next.keyId}, sealed = ${next.blob}
            WHERE id = ${row} AND key_id = ${expected.keyId} AND sealed = ${expected.blob} RETURNING id`
        case "apps.secret_sealed":
          return sql`
            UPDATE apps SET secret_key_id = ${next.keyId}, secret_sealed = ${next.blob}
            WHERE app_id = ${row} AND secret_key_id = ${expected.keyId} AND secret_sealed = ${expected.blob} RETURNING app_id`
        case "apps.webhook_key_sealed":
          return sql`
            UPDATE apps SET webhook_key_id = ${next.keyId}, webhook_key_sealed = ${next.blob}
            WHERE app_id = ${row} AND webhook_key_id = ${expected.keyId} AND webhook_key_sealed = ${expected.blob} RETURNING app_id`
        case "wallet_keys.sealed_key":
          return sql`
            UPDATE wallet_keys SET key_id = ${next.keyId}, sealed_key = ${next.blob}
            WHERE wallet_id = ${row} AND key_id = ${expected.keyId} AND sealed_key = ${expected.blob} RETURNING wallet_id`
        case "resource_accounts.sealed_key":
          return sql`
            UPDATE resource_accounts SET key_id = ${next.keyId}, sealed_key = ${next.blob}
            WHERE id = ${row} AND store = 'local' AND key_id = ${expected.keyId} AND sealed_key = ${expected.blob} RETURNING id`
      }
    })()
    return statement.pipe(Effect.map((rows) => rows.length === 1), Effect.orDie)
  }

  const countByKeyId = sql<{ key_id: string; count: string }>`
    SELECT key_id, count(*)::text AS count FROM (
      SELECT key_id FROM master_key_check
      UNION ALL SELECT secret_key_id FROM apps
      UNION ALL SELECT webhook_key_id FROM apps
      UNION ALL SELECT key_id FROM wallet_keys WHERE store = 'local'
      UNION ALL SELECT key_id FROM resource_accounts WHERE store = 'local'
    ) AS sealed GROUP BY key_id ORDER BY key_id COLLATE "C"`.pipe(
    Effect.map((rows) => rows.map((r): Secrets.KeyIdCount => ({ keyId: r.key_id, count: Number(r.count) }))),
    Effect.orDie
  )

  const keyCheck = sql<{ key_id: string; sealed: Uint8Array }>`SELECT key_id, sealed FROM master_key_check WHERE id = 1`.pipe(
    Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (r): Secrets.Sealed => ({ keyId: r.key_id, blob: new Uint8Array(r.sealed) }))),
    Effect.orDie
  )

  // The first writer's check stays: a second process starting at the same time reads it back.
  const createKeyCheck = (sealed: Secrets.Sealed) =>
    sql`INSERT INTO master_key_check (id, key_id, sealed) VALUES (1, ${sealed.keyId}, ${sealed.blob}) ON CONFLICT (id) DO NOTHING`.pipe(
      Effect.zipRight(keyCheck),
      Effect.map(Option.getOrThrow),
      Effect.orDie
    )

  const progress = sql<ProgressRow>`
    SELECT key_id, after_column, after_row::text AS after_row, resealed::text AS resealed, current::text AS current,
           changed::text AS changed, unreadable::text AS unreadable
    FROM reseal_progress WHERE id = 1`.pipe(
    Effect.map((rows) =>
      Option.map(Option.fromNullable(rows[0]), (r): Secrets.ResealProgress => ({
        keyId: r.key_id,
        after: r.after_column === null || r.after_row === null ? null : { column: r.after_column, rowId: r.after_row },
        resealed: Number(r.resealed),
        current: Number(r.current),
        changed: Number(r.changed),
        unreadable: Number(r.unreadable)
      }))
    ),
    Effect.orDie
  )

  const saveProgress = (p: Secrets.ResealProgress) =>
    sql`
      INSERT INTO reseal_progress (id, key_id, after_column, after_row, resealed, current, changed, unreadable, updated_at)
      VALUES (1, ${p.keyId}, ${p.after?.column ?? null}, ${p.after?.rowId ?? null}, ${p.resealed}, ${p.current}, ${p.changed}, ${p.unreadable}, now())
      ON CONFLICT (id) DO UPDATE SET key_id = EXCLUDED.key_id, after_column = EXCLUDED.after_column, after_row = EXCLUDED.after_row,
        resealed = EXCLUDED.resealed, current = EXCLUDED.current, changed = EXCLUDED.changed, unreadable = EXCLUDED.unreadable,
        updated_at = now()`.pipe(Effect.asVoid, Effect.orDie)

  return Secrets.SealedValues.of({
    page,
    replace,
    countByKeyId,
    keyCheck,
    createKeyCheck,
    progress,
    saveProgress,
    clearProgress: sql`DELETE FROM reseal_progress WHERE id = 1`.pipe(Effect.asVoid, Effect.orDie)
  })
})

export const layer = Layer.effect(Secrets.SealedValues, make)
