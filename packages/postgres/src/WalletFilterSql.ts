import type { SqlClient, Statement } from "@effect/sql"
import type { Tenants, Wallets } from "@collector/core"

/**
 * The tenant's `%` and `_` are wildcards by contract; only the backslash (ILIKE's escape
 * character) is escaped, so the input can never change how the rest of the pattern reads.
 * Compare with `lower(column) LIKE`, which the trigram indexes on `lower(address)` serve.
 */
export const containsPattern = (text: string) => `%${text.toLowerCase().replaceAll("\\", "\\\\")}%`

export const hasFilters = (f: Wallets.WalletFilters) => Object.values(f).some((v) => v !== undefined)

/** The WHERE clause of a wallet list or selection: the scope plus each filter present. */
export const walletWhere = (sql: SqlClient.SqlClient, scope: Tenants.TenantScope, f: Wallets.WalletFilters): Statement.Fragment => {
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

// Nullable keys say NULLS LAST; NOT NULL keys say nothing, so that ORDER BY matches the
// indexes (created_at DESC, id DESC) exactly and a page is read from the index, not sorted.
const sortKeys = {
  created_at: { column: "w.created_at", nullable: false },
  balance_usdt: { column: "w.balance_usdt", nullable: true },
  balance_trx: { column: "w.balance_trx", nullable: true },
  last_collected_at: { column: "w.last_collected_at", nullable: true },
  collected_usdt: { column: "w.collected_usdt", nullable: false }
} as const

/** Ties by ID descending; nulls (unsynced balances, never collected) always last. */
export const walletOrder = (sql: SqlClient.SqlClient, query: Pick<Wallets.WalletQuery, "sort" | "order">): Statement.Fragment => {
  const key = sortKeys[query.sort]
  return sql.unsafe(`${key.column} ${query.order === "asc" ? "ASC" : "DESC"}${key.nullable ? " NULLS LAST" : ""}, w.id DESC`)
}
