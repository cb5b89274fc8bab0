import { SqlClient, type Statement } from "@effect/sql"
import {
  type ConfirmationRule,
  type Deposit,
  type DepositId,
  DepositRepository,
  type DepositStatus,
  type EventId,
  type Network,
  type TenantId,
  type TenantScope,
  type WalletId
} from "@collector/core"
import { Effect, Layer, Option } from "effect"
import { containsPattern } from "./WalletFilterSql"

// int8 and numeric come back as text: IDs and money never pass through a JS number.
const depositColumns = `d.id::text AS id, d.event_id::text AS event_id, d.tenant_id::text AS tenant_id, d.network, d.status,
  d.wallet_id::text AS wallet_id, d.custom_id, d.address, d.source, d.contract, d.amount::text AS amount, d.txid, d.log_index,
  d.block_number::text AS block_number, d.block_hash, d.block_time, d.created_at, d.revision, d.confirmation_type, d.confirmations`

interface DepositRow {
  readonly id: string
  readonly event_id: string
  readonly tenant_id: string
  readonly network: Network
  readonly status: DepositStatus
  readonly wallet_id: string
  readonly custom_id: string
  readonly address: string
  readonly source: string
  readonly contract: string
  readonly amount: string
  readonly txid: string
  readonly log_index: number
  readonly block_number: string
  readonly block_hash: string | null
  readonly block_time: Date
  readonly created_at: Date
  readonly revision: number
  readonly confirmation_type: ConfirmationRule
  readonly confirmations: number | null
}

const toDeposit = (row: DepositRow): Deposit => ({
  id: row.id as DepositId,
  eventId: row.event_id as EventId,
  tenantId: row.tenant_id as TenantId,
  network: row.network,
  status: row.status,
  walletId: row.wallet_id as WalletId,
  customId: row.custom_id,
  address: row.address,
  source: row.source,
  contract: row.contract,
  amount: BigInt(row.amount),
  txid: row.txid,
  logIndex: row.log_index,
  blockNumber: BigInt(row.block_number),
  blockHash: row.block_hash,
  blockTime: row.block_time,
  createdAt: row.created_at,
  revision: row.revision,
  confirmationType: row.confirmation_type,
  confirmations: row.confirmations
})

/** The scope, plus the receiving-address filter when one is given (source and contract never match). */
const depositWhere = (sql: SqlClient.SqlClient, scope: TenantScope, address: string): Statement.Fragment => {
  const clauses = [sql`d.tenant_id = ${scope.tenantId}`, sql`d.network = ${scope.network}`]
  if (address !== "") clauses.push(sql`lower(d.address) LIKE ${containsPattern(address)}`)
  return sql.and(clauses)
}

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const columns = sql.unsafe(depositColumns)
  return DepositRepository.of({
    // One statement, so the page and its total come from the same snapshot: the count row is
    // always there, and a page past the end simply joins no deposit (`id` null).
    list: (scope, query) =>
      Effect.gen(function*() {
        const where = depositWhere(sql, scope, query.address)
        const rows = yield* sql<DepositRow & { total: string }>`
          SELECT counted.total::text AS total, page.* FROM (SELECT count(*) AS total FROM deposits d WHERE ${where}) counted
          LEFT JOIN LATERAL (
            SELECT ${columns} FROM deposits d WHERE ${where}
            ORDER BY d.id DESC LIMIT ${query.pageSize} OFFSET ${(query.page - 1) * query.pageSize}
          ) page ON true`
        const items = rows.filter((row) => row.id !== null).map(toDeposit)
        return { items, total: Number(rows[0]!.total) }
      }).pipe(Effect.orDie),
    find: (scope, id) =>
      sql<DepositRow>`
        SELECT ${columns} FROM deposits d WHERE d.id = ${id} AND d.tenant_id = ${scope.tenantId} AND d.network = ${scope.network}`.pipe(
        Effect.orDie,
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toDeposit))
      ),
    confirmedTotal: (scope) =>
      sql<{ usdt: string }>`
        SELECT confirmed_usdt::text AS usdt FROM deposit_totals WHERE tenant_id = ${scope.tenantId} AND network = ${scope.network}`.pipe(
        Effect.orDie,
        Effect.map((rows) => (rows[0] === undefined ? 0n : BigInt(rows[0].usdt)))
      )
  })
})

export const PgDepositRepository = Layer.effect(DepositRepository, make)
