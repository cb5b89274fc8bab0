import { Effect, Layer } from "effect"
import type { FeeEntry } from "./FeeEntry.js"
import { FeeLedger, type FeePeriod } from "./FeeLedger.js"
import { addEntry, noFees } from "./FeeTotals.js"
import type { TenantScope } from "../tenants/Scope.js"
import { MemoryDatabase } from "../memory/MemoryDatabase.js"
import { feeLedger, sweepTasks } from "../memory/MemoryTables.js"

const byId = (a: { readonly id: string }, b: { readonly id: string }) => (BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0)

const inPeriod = (period: FeePeriod) => (e: FeeEntry) =>
  e.blockTime.getTime() >= period.since.getTime() && (period.until === undefined || e.blockTime.getTime() < period.until.getTime())

const inScope = (scope: TenantScope, period: FeePeriod) => (e: FeeEntry) =>
  e.tenantId === scope.tenantId && e.network === scope.network && inPeriod(period)(e)

/** Newest block first, then the higher task ID, as PostgreSQL's ORDER BY. */
const newestFirst = (a: FeeEntry, b: FeeEntry) =>
  b.blockTime.getTime() - a.blockTime.getTime() || -byId({ id: a.taskId }, { id: b.taskId })

export const make = Effect.gen(function*() {
  const db = yield* MemoryDatabase
  const entries = db.table(feeLedger)
  const tasks = db.table(sweepTasks)
  return FeeLedger.of({
    record: (entry) =>
      db.atomically(() => {
        if (entries.get(entry.taskId) !== undefined) return false
        entries.put(entry.taskId, entry)
        return true
      }),
    unbooked: (network, limit, after) =>
      db.atomically(() =>
        tasks.filter((t) =>
          t.network === network && (t.status === "succeeded" || t.status === "failed") && t.transaction !== null &&
          t.actualBandwidthFee !== null && entries.get(t.id) === undefined && (after === undefined || BigInt(t.id) > BigInt(after))
        ).sort(byId).slice(0, limit).map((t) => ({ tenantId: t.tenantId, network: t.network, taskId: t.id }))
      ),
    totals: (scope, period) => db.atomically(() => entries.filter(inScope(scope, period)).reduce(addEntry, noFees)),
    networkTotals: (network, period) =>
      db.atomically(() => entries.filter((e) => e.network === network && inPeriod(period)(e)).reduce(addEntry, noFees)),
    list: (scope, period, limit) => db.atomically(() => entries.filter(inScope(scope, period)).sort(newestFirst).slice(0, limit))
  })
})

export const layer = Layer.effect(FeeLedger, make)
