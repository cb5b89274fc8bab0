import { Deposits, type Memory, Sweeps, type Tenants, Wallets } from "@collector/core"
import { Effect } from "effect"
import type { Snapshot } from "../Snapshot.js"
import { sweepsOf } from "../SimulatedNetwork.js"
import type { WorldParts } from "../WorldParts.js"

/** The statuses a task ends in, as the contract lists them (written out, not taken from the core). */
const terminal: ReadonlySet<string> = new Set(["succeeded", "failed", "cancelled"])

/** The figures of one scope's dashboard, as its handler reads them. */
export interface DashboardFigures extends Wallets.WalletSummary {
  readonly depositUsdt: bigint
  readonly pendingTasks: number
}

const sum = <A>(rows: ReadonlyArray<A>, amount: (row: A) => bigint | null) => rows.reduce((total, row) => total + (amount(row) ?? 0n), 0n)

/** What the records of the scope say each figure is: its wallets, the confirmed deposits, the succeeded and unfinished tasks. */
export const recordedFigures = (snapshot: Snapshot, scope: Tenants.TenantScope): DashboardFigures => {
  const inScope = (row: { readonly tenantId: string; readonly network: string }) => row.tenantId === scope.tenantId && row.network === scope.network
  const wallets = snapshot.wallets.filter(inScope)
  const tasks = snapshot.sweepTasks.filter(inScope)
  return {
    walletCount: wallets.length,
    unsyncedWalletCount: wallets.filter((w) => w.balanceBlock === 0n).length,
    balanceUsdt: sum(wallets, (w) => w.balanceUsdt),
    balanceTrx: sum(wallets, (w) => w.balanceTrx),
    collectedUsdt: sum(tasks.filter((t) => t.status === "succeeded"), (t) => t.amount),
    depositUsdt: sum(snapshot.deposits.filter((d) => inScope(d) && d.status === "confirmed"), (d) => d.amount),
    pendingTasks: tasks.filter((t) => !terminal.has(t.status)).length
  }
}

/** Each figure the dashboard shows that is not what the records say. */
export const dashboardDisagreements = (snapshot: Snapshot, app: Memory.MemoryTables.AppRow, shown: DashboardFigures): ReadonlyArray<string> => {
  const recorded = recordedFigures(snapshot, app)
  return (Object.keys(recorded) as Array<keyof DashboardFigures>)
    .filter((figure) => shown[figure] !== recorded[figure])
    .map((figure) => `dashboard of tenant ${app.tenantId} on ${app.network}: ${figure} ${shown[figure]}, the records say ${recorded[figure]}`)
}

/**
 * The dashboard's figures of every tenant scope, read through the same core queries its handler
 * calls, agree with the records.
 */
export const dashboardAgrees = (world: WorldParts, snapshot: Snapshot) =>
  Effect.gen(function*() {
    const wallets = yield* Wallets.Wallets
    const deposits = yield* Deposits.DepositRepository
    const violations: Array<string> = []
    for (const network of world.networks) {
      const sweeps = yield* Effect.provide(Sweeps.Sweeps, sweepsOf(network))
      for (const app of snapshot.apps.filter((a) => a.network === network.network)) {
        const scope: Tenants.TenantScope = { tenantId: app.tenantId, network: app.network }
        const shown = yield* Effect.all({
          summary: wallets.summary(scope),
          depositUsdt: deposits.confirmedTotal(scope),
          pendingTasks: sweeps.pendingCount(scope)
        })
        violations.push(...dashboardDisagreements(snapshot, app, { ...shown.summary, depositUsdt: shown.depositUsdt, pendingTasks: shown.pendingTasks }))
      }
    }
    return violations
  })
