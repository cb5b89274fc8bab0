import { SqlClient } from "@effect/sql"
import { type Kernel, type Tenants, Wallets } from "@collector/core"
import { Effect, Layer, Option } from "effect"
import { integerArray } from "./PgArrays.js"
import * as WalletKeyRow from "./WalletKeyRow.js"
import { isUniqueViolationOf } from "./SqlErrors.js"
import { terminalSql } from "./SweepRows.js"
import { hasFilters, walletOrder, walletWhere } from "./WalletFilterSql.js"

// A wallet is collecting while it has an unfinished sweep task: one probe of the partial unique
// index `sweep_tasks_wallet_unfinished` per wallet returned (a list page evaluates it per page row).
// OFFSET 0 keeps the planner from turning the EXISTS into a hashed subplan, which reads every
// unfinished task of every tenant once per page: it costs the probes as if the whole scope were read.
const collectingSql = `EXISTS (SELECT 1 FROM sweep_tasks t WHERE t.wallet_id = w.id AND t.status NOT IN ${terminalSql} OFFSET 0)`

const walletColumns = `w.id, w.network, w.address, w.custom_id, w.balance_usdt::text, w.balance_trx::text, w.balance_block,
  w.collected_usdt::text, w.last_collected_at, w.created_at,
  coalesce(s.collection_address, '') AS destination, coalesce(s.collection_wallet_id = w.id, false) AS is_collection,
  ${collectingSql} AS collecting`

// Every wallet read joins its scope's settings row: the destination and whether the wallet is it.
const walletsWithSettings = `wallets w LEFT JOIN tenant_settings s ON s.tenant_id = w.tenant_id AND s.network = w.network`

interface WalletRow {
  readonly destination: string
  readonly is_collection: boolean
  readonly collecting: boolean
  readonly id: string
  readonly network: Kernel.Network
  readonly address: string
  readonly custom_id: string
  readonly balance_usdt: string | null
  readonly balance_trx: string | null
  readonly balance_block: string
  readonly collected_usdt: string
  readonly last_collected_at: Date | null
  readonly created_at: Date
}

const toWallet = (row: WalletRow): Wallets.Wallet => ({
  id: row.id as Kernel.WalletId,
  network: row.network,
  address: row.address,
  customId: row.custom_id,
  collectionStatus: row.collecting ? "collecting" : "idle",
  balanceUsdt: row.balance_usdt === null ? null : BigInt(row.balance_usdt),
  balanceTrx: row.balance_trx === null ? null : BigInt(row.balance_trx),
  balanceBlock: BigInt(row.balance_block),
  destination: row.destination,
  isCollectionAddress: row.is_collection,
  collectedUsdt: BigInt(row.collected_usdt),
  lastCollectedAt: row.last_collected_at,
  createdAt: row.created_at
})

/**
 * The page statement of `list` (exported for EXPLAIN in tests): the total rides on every row, a
 * sharded counter without filters, a window count with them.
 */
export const listStatement = <A extends object>(sql: SqlClient.SqlClient, scope: Tenants.TenantScope, query: Wallets.WalletQuery) => {
  const totalColumn = hasFilters(query.filters)
    ? sql`count(*) OVER ()`
    : sql`(SELECT coalesce(sum(n), 0) FROM wallet_counts c WHERE c.tenant_id = ${scope.tenantId} AND c.network = ${scope.network})`
  return sql<A>`
    SELECT ${sql.unsafe(walletColumns)}, ${totalColumn}::text AS total FROM ${sql.unsafe(walletsWithSettings)}
    WHERE ${walletWhere(sql, scope, query.filters)}
    ORDER BY ${walletOrder(sql, query)} LIMIT ${query.pageSize} OFFSET ${(query.page - 1) * query.pageSize}`
}

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const columns = sql.unsafe(walletColumns)
  const from = sql.unsafe(walletsWithSettings)
  const collecting = sql.unsafe(collectingSql)
  const toWallets = (rows: ReadonlyArray<WalletRow>) => rows.map(toWallet)
  return Wallets.WalletRepository.of({
    // One statement (atomic on its own): the wallet and its key (sealed, or a token label) land together or not at all.
    // With a limit, the tenant's count comes from the sharded counters (a few rows, not a scan);
    // no row inserted then means the limit was reached.
    drawId: sql<{ id: string }>`SELECT nextval(pg_get_serial_sequence('wallets', 'id'))::text AS id`.pipe(
      Effect.map(([row]) => row!.id as Kernel.WalletId),
      Effect.orDie
    ),
    insert: (scope, wallet, maxWallets) => {
      const key = WalletKeyRow.toColumns(wallet.key)
      return sql<{ id: string; created_at: Date }>`
        WITH inserted AS (
          INSERT INTO wallets (id, tenant_id, network, address, custom_id)
          SELECT ${wallet.id === undefined ? sql`nextval(pg_get_serial_sequence('wallets', 'id'))` : wallet.id}, ${scope.tenantId}, ${scope.network}, ${wallet.address}, ${wallet.customId}
          WHERE ${maxWallets === undefined ? sql`true` : sql`(SELECT coalesce(sum(n), 0) FROM wallet_counts WHERE tenant_id = ${scope.tenantId}) < ${maxWallets}`}
          RETURNING id, created_at
        ), keyed AS (
          INSERT INTO wallet_keys (wallet_id, store, key_id, sealed_key, key_label)
          SELECT id, ${key.store}, ${key.keyId}, ${key.sealedKey}, ${key.keyLabel} FROM inserted
        ), counted AS (
          INSERT INTO wallet_counts (tenant_id, network, shard, n)
          SELECT ${scope.tenantId}, ${scope.network}, floor(random() * 16)::smallint, 1 FROM inserted
          ON CONFLICT (tenant_id, network, shard) DO UPDATE SET n = wallet_counts.n + 1
        )
        SELECT id, created_at FROM inserted`.pipe(
        Effect.filterOrFail((rows) => rows.length > 0, () => new Wallets.WalletLimitReached({ limit: maxWallets ?? 0 })),
        Effect.map(([row]) => ({
          id: row!.id as Kernel.WalletId,
          address: wallet.address,
          customId: wallet.customId,
          network: scope.network,
          createdAt: row!.created_at
        })),
        Effect.catchIf(isUniqueViolationOf("wallets_tenant_id_network_custom_id_key"), () => Effect.fail(new Wallets.CustomIdTaken({ customId: wallet.customId }))),
        Effect.catchTag("SqlError", Effect.die)
      )
    },
    find: (scope, id) =>
      sql<WalletRow>`SELECT ${columns} FROM ${from} WHERE w.id = ${id} AND w.tenant_id = ${scope.tenantId} AND w.network = ${scope.network}`.pipe(
        Effect.orDie,
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toWallet))
      ),
    findByAddress: (scope, address) =>
      sql<WalletRow>`SELECT ${columns} FROM ${from} WHERE w.address = ${address} AND w.tenant_id = ${scope.tenantId} AND w.network = ${scope.network}`.pipe(
        Effect.orDie,
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toWallet))
      ),
    // One statement for the page and its total: the total rides on every row (a sharded counter
    // without filters, a window count with them). Only a page past the end needs a second query.
    list: (scope, query) =>
      Effect.gen(function*() {
        const where = walletWhere(sql, scope, query.filters)
        const filtered = hasFilters(query.filters)
        const rows = yield* listStatement<WalletRow & { total: string }>(sql, scope, query)
        if (rows.length > 0) return { items: toWallets(rows), total: Number(rows[0]!.total) }
        const [counted] = filtered
          ? yield* sql<{ n: string }>`SELECT count(*)::text AS n FROM wallets w WHERE ${where}`
          : yield* sql<{ n: string }>`
              SELECT coalesce(sum(n), 0)::text AS n FROM wallet_counts WHERE tenant_id = ${scope.tenantId} AND network = ${scope.network}`
        return { items: [], total: Number(counted!.n) }
      }).pipe(Effect.orDie),
    selectIds: (scope, filters, limit) =>
      sql<{ id: string }>`SELECT w.id::text AS id FROM wallets w WHERE ${walletWhere(sql, scope, filters)} ORDER BY w.id ASC${
        limit === undefined ? sql`` : sql` LIMIT ${limit}`
      }`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.map((r) => r.id as Kernel.WalletId))
      ),
    findMany: (scope, ids) =>
      ids.length === 0
        ? Effect.succeed([])
        : sql<WalletRow>`SELECT ${columns} FROM ${from}
            WHERE w.id = ANY(${integerArray(ids)}::bigint[]) AND w.tenant_id = ${scope.tenantId} AND w.network = ${scope.network}
            ORDER BY w.id ASC`.pipe(Effect.orDie, Effect.map(toWallets)),
    unavailable: (scope, ids) =>
      ids.length === 0
        ? Effect.succeed([])
        : sql<{ id: string }>`
            SELECT w.id::text AS id FROM wallets w
            LEFT JOIN tenant_settings s ON s.tenant_id = w.tenant_id AND s.network = w.network
            WHERE w.id = ANY(${integerArray(ids)}::bigint[]) AND w.tenant_id = ${scope.tenantId} AND w.network = ${scope.network}
              AND (s.collection_wallet_id = w.id OR ${collecting})
            ORDER BY w.id ASC`.pipe(Effect.orDie, Effect.map((rows) => rows.map((r) => r.id as Kernel.WalletId))),
    summary: (scope) =>
      sql<{ wallets: string; unsynced: string; usdt: string; trx: string; collected: string }>`
        SELECT count(*)::text AS wallets, count(*) FILTER (WHERE balance_block = 0)::text AS unsynced,
               coalesce(sum(balance_usdt), 0)::text AS usdt, coalesce(sum(balance_trx), 0)::text AS trx,
               coalesce(sum(collected_usdt), 0)::text AS collected
        FROM wallets WHERE tenant_id = ${scope.tenantId} AND network = ${scope.network}`.pipe(
        Effect.orDie,
        Effect.map(([r]) => ({
          walletCount: Number(r!.wallets),
          unsyncedWalletCount: Number(r!.unsynced),
          balanceUsdt: BigInt(r!.usdt),
          balanceTrx: BigInt(r!.trx),
          collectedUsdt: BigInt(r!.collected)
        }))
      )
  })
})

export const layer = Layer.effect(Wallets.WalletRepository, make)
