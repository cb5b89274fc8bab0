import { Effect, Layer, Option } from "effect"
import type { Deposit } from "./Deposit.js"
import { DepositRepository } from "./DepositRepository.js"
import type { TenantScope } from "../tenants/Scope.js"
import { containsPattern } from "../memory/ContainsPattern.js"
import { MemoryDatabase } from "../memory/MemoryDatabase.js"
import { type DepositRow, deposits, depositTotals, keyOf } from "../memory/MemoryTables.js"
import { compareIds } from "../memory/Ordering.js"

const inScope = (scope: TenantScope) => (row: DepositRow) => row.tenantId === scope.tenantId && row.network === scope.network

const toDeposit = ({ updatedAt: _, ...deposit }: DepositRow): Deposit => deposit

export const make = Effect.gen(function*() {
  const db = yield* MemoryDatabase
  const rows = db.table(deposits)
  return DepositRepository.of({
    // The receiving address only: source and contract never match the filter.
    list: (scope, query) =>
      db.atomically(() => {
        const matches = query.address === "" ? () => true : containsPattern(query.address)
        const found = rows.filter((row) => inScope(scope)(row) && matches(row.address)).sort((a, b) => compareIds(b.id, a.id))
        const offset = (query.page - 1) * query.pageSize
        return { items: found.slice(offset, offset + query.pageSize).map(toDeposit), total: found.length }
      }),
    find: (scope, id) => db.atomically(() => Option.map(Option.fromNullable(rows.get(id)).pipe(Option.filter(inScope(scope))), toDeposit)),
    confirmedTotal: (scope) => db.atomically(() => db.table(depositTotals).get(keyOf(scope.tenantId, scope.network)) ?? 0n)
  })
})

export const layer = Layer.effect(DepositRepository, make)
