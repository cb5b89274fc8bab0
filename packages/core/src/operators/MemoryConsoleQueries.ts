import { Effect, Layer, Option } from "effect"
import { compareIds } from "../kernel/Int64Id.js"
import { ConsoleQueries, type FoundTransaction } from "./ConsoleQueries.js"
import { isTerminal, type SweepStatus } from "../sweeps/SweepTask.js"
import { MemoryDatabase } from "../memory/MemoryDatabase.js"
import { apps, deliveryAttempts, deposits, events, keyOf, scanCursors, sweepTasks, tenants, tenantSettings, wallets } from "../memory/MemoryTables.js"

const newestFirst = <A extends { readonly id: string }>(a: A, b: A) => compareIds(b.id, a.id)

export const make = Effect.gen(function*() {
  const db = yield* MemoryDatabase
  const [tenantRows, appRows, walletRows, settingsRows, cursorRows, depositRows, eventRows, attemptRows, sweepRows] = [
    db.table(tenants),
    db.table(apps),
    db.table(wallets),
    db.table(tenantSettings),
    db.table(scanCursors),
    db.table(deposits),
    db.table(events),
    db.table(deliveryAttempts),
    db.table(sweepTasks)
  ]
  const troubled = (e: { status: string; attempts: number }) => e.status === "failed" || ((e.status === "pending" || e.status === "delivering") && e.attempts > 0)

  return ConsoleQueries.of({
    networkActivity: (network, since, countLimit) =>
      db.atomically(() => {
        const tally = (from: Date) => {
          const booked = depositRows.filter((d) => d.network === network && d.status === "confirmed" && d.createdAt.getTime() >= from.getTime())
          return { count: booked.length, usdt: booked.reduce((sum, d) => sum + d.amount, 0n) }
        }
        const cursor = cursorRows.get(network)
        const recentSweeps = sweepRows.filter((t) => t.network === network && t.status !== "succeeded" && (!isTerminal(t.status) || t.updatedAt.getTime() >= since.day.getTime()))
          .sort(newestFirst).slice(0, countLimit)
        const counts = new Map<SweepStatus, number>()
        for (const task of recentSweeps) counts.set(task.status, (counts.get(task.status) ?? 0) + 1)
        return {
          position: Option.map(Option.fromNullable(cursor), (c) => ({ scanned: c.blockNumber, head: c.headNumber, solidified: c.solidifiedNumber, updatedAt: c.updatedAt })),
          depositsSinceHour: tally(since.hour),
          depositsSinceDay: tally(since.day),
          webhookBacklog: Math.min(countLimit, eventRows.filter((e) => e.network === network && (e.status === "pending" || e.status === "delivering")).length),
          sweepsByStatus: [...counts].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0).map(([status, count]) => ({ status, count }))
        }
      }),

    tenants: (since, limit) =>
      db.atomically(() =>
        [...appRows.values()]
          .flatMap((app) => {
            const tenant = tenantRows.get(app.tenantId)
            return tenant === undefined || tenant.status === "deleted" ? [] : [{ tenant, app }]
          })
          .sort((a, b) => compareIds(a.tenant.id, b.tenant.id) || (a.app.network < b.app.network ? -1 : a.app.network > b.app.network ? 1 : 0))
          .slice(0, limit)
          .map(({ app, tenant }) => {
            const inScope = <R extends { tenantId: string; network: string }>(row: R) => row.tenantId === tenant.id && row.network === app.network
            const scopeWallets = walletRows.filter(inScope)
            const settings = settingsRows.get(keyOf(tenant.id, app.network))
            const policySet = settings !== undefined && settings.automationUpdatedAt !== null
            const ended = (status: string) => eventRows.filter((e) => inScope(e) && e.createdAt.getTime() >= since.getTime() && e.status === status).length
            return {
              tenantId: tenant.id,
              name: tenant.name,
              status: tenant.status,
              network: app.network,
              walletCount: scopeWallets.length,
              balanceUsdt: scopeWallets.reduce((sum, w) => sum + (w.balanceUsdt ?? 0n), 0n),
              collectionAddress: settings?.collectionAddress ?? "",
              confirmationRule: app.confirmationRule,
              automationEnabled: policySet ? settings.automationEnabled : false,
              automationThreshold: policySet ? settings.automationThreshold : null,
              webhookUrl: settings?.webhookUrl ?? "",
              webhookEnabled: settings?.webhookEnabled ?? false,
              deliveredSinceDay: ended("delivered"),
              failedSinceDay: ended("failed")
            }
          })
      ),

    troubledDeliveries: (limit) =>
      db.atomically(() =>
        eventRows.filter(troubled).sort(newestFirst).slice(0, limit).map((e) => {
          const last = attemptRows.filter((a) => a.eventId === e.id).sort(newestFirst)[0]
          return {
            eventId: e.id,
            tenantId: e.tenantId,
            network: e.network,
            eventType: e.eventType,
            status: e.status,
            attempts: e.attempts,
            round: e.currentRound,
            lastHttpStatus: last?.httpStatus ?? null,
            lastError: e.lastError,
            nextAttempt: e.nextAttempt,
            createdAt: e.createdAt
          }
        })
      ),

    sweepsNotSucceeded: (limit) =>
      db.atomically(() =>
        sweepRows.filter((t) => t.status !== "succeeded").sort(newestFirst).slice(0, limit).map((t) => ({
          id: t.id,
          tenantId: t.tenantId,
          network: t.network,
          address: t.address,
          status: t.status,
          stage: t.stage,
          reason: t.reason,
          amount: t.amount,
          updatedAt: t.updatedAt
        }))
      ),

    findWallets: (address) =>
      db.atomically(() =>
        walletRows.filter((w) => w.address === address).sort((a, b) => a.network < b.network ? -1 : 1).map((w) => ({
          walletId: w.id,
          tenantId: w.tenantId,
          network: w.network,
          address: w.address,
          customId: w.customId,
          balanceUsdt: w.balanceUsdt
        }))
      ),

    findTransaction: (txid) =>
      db.atomically((): ReadonlyArray<FoundTransaction> => [
        ...depositRows.filter((d) => d.txid === txid).sort((a, b) => compareIds(a.id, b.id)).map((d) => ({
          kind: "deposit" as const,
          id: d.id,
          tenantId: d.tenantId,
          network: d.network,
          status: d.status,
          address: d.address,
          amount: d.amount
        })),
        ...sweepRows.filter((t) => t.transaction?.txid === txid).sort((a, b) => compareIds(a.id, b.id)).map((t) => ({
          kind: "sweep" as const,
          id: t.id,
          tenantId: t.tenantId,
          network: t.network,
          status: t.status,
          address: t.address,
          amount: t.amount
        }))
      ])
  })
})

export const layer = Layer.effect(ConsoleQueries, make)
