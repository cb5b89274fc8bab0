import { SqlClient } from "@effect/sql"
import { Balances, type Kernel } from "@collector/core"
import { Clock, Effect, Layer } from "effect"
import { integerArray } from "./PgArrays.js"
import { render } from "./RowRuleSql.js"

// The column core's staleness rules (BalanceStaleness) read.
const staleMark = { balanceStaleFrom: "balance_stale_from" }

/**
 * Two ordered index scans, each stopping after `limit` rows: the stale range of
 * `wallets_sync_stale` (partial, so only marked wallets are in it), then the rotation order of
 * `wallets_sync_rotation` (NULLS FIRST puts never-synced wallets ahead of the oldest). The
 * rotation skips the wallets the first part already took. PgBalanceLedger.test.ts checks the
 * plan with EXPLAIN.
 */
export const dueStatement = (sql: SqlClient.SqlClient, network: Kernel.Network, limit: number, solidified: bigint) =>
  sql<{ id: string; address: string }>`
    SELECT due.id::text AS id, due.address FROM (
      (SELECT id, address, 0 AS part, balance_stale_from AS stale_from, NULL::timestamptz AS synced_at FROM wallets
        WHERE network = ${network} AND ${render(sql, Balances.BalanceStaleness.staleJumpsRotation, staleMark, { solidified })}
        ORDER BY balance_stale_from, id LIMIT ${limit})
      UNION ALL
      (SELECT id, address, 1, NULL::bigint, balance_synced_at FROM wallets
        WHERE network = ${network} AND ${render(sql, Balances.BalanceStaleness.staleWaitsInRotation, staleMark, { solidified })}
        ORDER BY balance_synced_at NULLS FIRST, id LIMIT ${limit})
    ) due
    ORDER BY due.part, due.stale_from, due.synced_at NULLS FIRST, due.id LIMIT ${limit}`

/**
 * Never-synced wallets are counted by `balance_synced_at IS NULL`, the head of the rotation
 * index, instead of the dashboard's equivalent `balance_block = 0`, which has no index and
 * would read every wallet of the network each batch. Only `record` writes either column, and
 * it writes both.
 */
export const backlogStatement = (sql: SqlClient.SqlClient, network: Kernel.Network) =>
  sql<{ unsynced: string; stale: string }>`
    SELECT
      (SELECT count(*) FROM wallets WHERE network = ${network} AND balance_synced_at IS NULL)::text AS unsynced,
      (SELECT count(*) FROM wallets WHERE network = ${network} AND balance_stale_from IS NOT NULL)::text AS stale`

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return Balances.BalanceLedger.of({
    due: (network, limit, solidified) =>
      dueStatement(sql, network, limit, solidified).pipe(
        Effect.orDie,
        Effect.map((rows) => rows.map((row) => ({ id: row.id as Kernel.WalletId, address: row.address })))
      ),
    /**
     * One statement per batch. `balance_block <= at_block` keeps a late reading from an older
     * block (a slow node, a second worker) from moving a wallet backwards; the stale mark is
     * cleared only by a reading at or above it, so a deposit noted later keeps the wallet first
     * in line. The old balances are locked first (by wallet ID), so each scope's running total
     * moves by exactly what this write changes, and its shards are written in one order (by
     * tenant and shard), so two workers' batches never wait on each other's rows in a cycle.
     */
    record: (network, readings) =>
      Effect.gen(function*() {
        if (readings.length === 0) return 0
        const rows = Balances.newestReadings(readings)
        const now = new Date(yield* Clock.currentTimeMillis)
        const [written] = yield* sql<{ n: number }>`
          WITH r AS (
            SELECT * FROM unnest(
              ${integerArray(rows.map((r) => r.walletId))}::bigint[],
              ${integerArray(rows.map((r) => r.usdt))}::numeric[],
              ${integerArray(rows.map((r) => r.trx))}::numeric[],
              ${integerArray(rows.map((r) => r.atBlock))}::bigint[]
            ) AS r (id, usdt, trx, at_block)
          ),
          old AS (
            SELECT w.id, w.tenant_id, w.balance_usdt, w.balance_trx FROM wallets w JOIN r ON w.id = r.id
            WHERE w.network = ${network} AND w.balance_block <= r.at_block
            ORDER BY w.id FOR UPDATE OF w
          ),
          changed AS (
            UPDATE wallets w SET
              balance_usdt = r.usdt,
              balance_trx = r.trx,
              balance_block = r.at_block,
              balance_synced_at = ${now},
              balance_stale_from = CASE
                WHEN ${render(sql, Balances.BalanceStaleness.readingClearsMark, { balanceStaleFrom: "w.balance_stale_from" }, { atBlock: sql`r.at_block` })} THEN NULL
                ELSE w.balance_stale_from END
            FROM r JOIN old ON old.id = r.id
            WHERE w.id = r.id
            RETURNING w.id, old.tenant_id, r.usdt - coalesce(old.balance_usdt, 0) AS usdt, r.trx - coalesce(old.balance_trx, 0) AS trx
          ),
          moved AS (
            INSERT INTO wallet_balance_totals (tenant_id, network, shard, usdt, trx)
            SELECT tenant_id, ${network}, (id % 16)::smallint, sum(usdt), sum(trx) FROM changed
            GROUP BY tenant_id, id % 16
            HAVING sum(usdt) <> 0 OR sum(trx) <> 0
            ORDER BY tenant_id, id % 16
            ON CONFLICT (tenant_id, network, shard) DO UPDATE SET
              usdt = wallet_balance_totals.usdt + EXCLUDED.usdt, trx = wallet_balance_totals.trx + EXCLUDED.trx
          )
          SELECT count(*)::int AS n FROM changed`
        return written!.n
      }).pipe(Effect.orDie),
    backlog: (network) =>
      backlogStatement(sql, network).pipe(
        Effect.orDie,
        Effect.map(([row]) => ({ unsynced: Number(row!.unsynced), stale: Number(row!.stale) }))
      )
  })
})

export const layer = Layer.effect(Balances.BalanceLedger, make)
