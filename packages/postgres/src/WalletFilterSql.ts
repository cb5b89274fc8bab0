import type { SqlClient, Statement } from "@effect/sql"
import type { TenantScope, WalletFilters, WalletQuery } from "@collector/core"

/**
 * The tenant's `%` and `_` are wildcards by contract; only the backslash (ILIKE's escape
 * character) is escaped, so the input can never change how the rest of the pattern reads.
 */
const containsPattern = (text: string) => `%${text.toLowerCase().replaceAll("\\", "\\\\")}%`

/** The WHERE clause of a wallet list or selection: the scope plus each filter present. */
export const walletWhere = (sql: SqlClient.SqlClient, scope: TenantScope, f: WalletFilters): Statement.Fragment => {
  const clauses: Array<Statement.Fragment> = [sql`w.tenant_id = ${scope.tenantId}`, sql`w.network = ${scope.network}`]
  if (f.address !== undefined) clauses.push(sql`lower(w.address) LIKE ${containsPattern(f.address)}`)
  // A bound on an unsynchronised (null) balance is unknown, so such wallets never match it.
  if (f.usdtMin !== undefined) clauses.push(sql`w.balance_usdt >= ${f.usdtMin.toString()}::numeric`)
  if (f.usdtMax !== undefined) clauses.push(sql`w.balance_usdt <= ${f.usdtMax.toString()}::numeric`)
  if (f.trxMin !== undefined) clauses.push(sql`w.balance_trx >= ${f.trxMin.toString()}::numeric`)
  if (f.trxMax !== undefined) clauses.push(sql`w.balance_trx <= ${f.trxMax.toString()}::numeric`)
  if (f.hideZero === true) clauses.push(sql`w.balance_usdt > 0`)
  if (f.hideZeroTrx === true) clauses.push(sql`w.balance_trx > 0`)
  if (f.lastCollectedFrom !== undefined) clauses.push(sql`w.last_collected_at >= ${f.lastCollectedFrom}`)
  if (f.lastCollectedTo !== undefined) clauses.push(sql`w.last_collected_at <= ${f.lastCollectedTo}`)
  return sql.and(clauses)
}

const sortColumns = {
  created_at: "w.created_at",
  balance_usdt: "w.balance_usdt",
  balance_trx: "w.balance_trx",
  last_collected_at: "w.last_collected_at",
  collected_usdt: "w.collected_usdt"
} as const

/** Ties by ID descending; nulls (unsynced balances, never collected) always last. */
export const walletOrder = (sql: SqlClient.SqlClient, query: Pick<WalletQuery, "sort" | "order">): Statement.Fragment =>
  sql.unsafe(`${sortColumns[query.sort]} ${query.order === "asc" ? "ASC" : "DESC"} NULLS LAST, w.id DESC`)
