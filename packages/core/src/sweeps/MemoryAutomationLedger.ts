import { Effect, Layer } from "effect"
import { AutomationLedger } from "./AutomationLedger.js"
import { automationCandidate, isAutomationDue, taskStillCollecting } from "./AutomationDue.js"
import * as RowRule from "../kernel/RowRule.js"
import { MemoryDatabase } from "../memory/MemoryDatabase.js"
import { storedPolicy } from "../memory/SettingsRows.js"
import { keyOf, sweepTasks, type TenantSettingsRow, tenants, tenantSettings, wallets } from "../memory/MemoryTables.js"
import { compare, compareDatesNullsFirst, compareIds } from "../memory/Ordering.js"

export const make = Effect.gen(function*() {
  const db = yield* MemoryDatabase
  const settings = db.table(tenantSettings)

  // Core's rule (AutomationDue), the same the PostgreSQL driver renders into its claim.
  const isDue = (row: TenantSettingsRow, now: Date) => {
    const tenant = db.table(tenants).get(row.tenantId)
    return tenant !== undefined && isAutomationDue(row, tenant, now)
  }

  return AutomationLedger.of({
    claimDue: (network, now, claimedUntil, limit) =>
      db.atomically(() =>
        settings
          .filter((row) => row.network === network && isDue(row, now))
          .sort((a, b) => compareDatesNullsFirst(a.automationLastRunAt, b.automationLastRunAt) || compareIds(a.tenantId, b.tenantId))
          .slice(0, limit)
          .map((row) => {
            settings.put(keyOf(row.tenantId, row.network), { ...row, automationRoundClaimedUntil: claimedUntil })
            return { scope: { tenantId: row.tenantId, network }, policy: storedPolicy(row) }
          })
      ),
    // Only under the claim the round was run with: a claim that ran out and was taken over stays.
    finishRound: (scope, at, claimedUntil) =>
      db.atomically(() => {
        const key = keyOf(scope.tenantId, scope.network)
        const row = settings.get(key)
        if (row === undefined || row.automationRoundClaimedUntil?.getTime() !== claimedUntil.getTime()) return
        settings.put(key, { ...row, automationLastRunAt: at, automationRoundClaimedUntil: null })
      }),
    candidates: (scope, threshold, limit) =>
      db.atomically(() => {
        const collectionWallet = settings.get(keyOf(scope.tenantId, scope.network))?.collectionWalletId ?? null
        const tasks = db.table(sweepTasks)
        const collecting = (walletId: string) => tasks.find((t) => t.walletId === walletId && RowRule.holds(taskStillCollecting, t, {})) !== undefined
        return db.table(wallets)
          .filter((w) =>
            w.tenantId === scope.tenantId && w.network === scope.network && RowRule.holds(automationCandidate, w, { threshold }) &&
            w.id !== collectionWallet && !collecting(w.id)
          )
          .sort((a, b) => compare(b.balanceUsdt!, a.balanceUsdt!) || compareIds(b.id, a.id))
          .slice(0, limit)
          .map((w) => w.id)
      })
  })
})

export const layer = Layer.effect(AutomationLedger, make)
