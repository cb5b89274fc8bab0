import { SqlClient, type Statement } from "@effect/sql"
import { Deposits, type Tenants } from "@collector/core"
import { type Context, Effect, Layer, Option } from "effect"
import { depositColumns, type DepositRow, toDeposit } from "./DepositRows.js"
import { containsPattern } from "./WalletFilterSql.js"

/** The scope, plus the receiving-address filter when one is given (source and contract never match). */
const depositWhere = (sql: SqlClient.SqlClient, scope: Tenants.TenantScope, address: string): Statement.Fragment => {
  const clauses = [sql`d.tenant_id = ${scope.tenantId}`, sql`d.network = ${scope.network}`]
  if (address !== "") clauses.push(sql`lower(d.address) LIKE ${containsPattern(address)}`)
  return sql.and(clauses)
}

export const make: Effect.Effect<Context.Tag.Service<typeof Deposits.DepositRepository>, never, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const columns = sql.unsafe(depositColumns)
  return Deposits.DepositRepository.of({
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

export const layer = Layer.effect(Deposits.DepositRepository, make)
