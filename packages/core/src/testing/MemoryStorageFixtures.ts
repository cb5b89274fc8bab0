import { Clock, Effect, Layer } from "effect"
import type { DepositId, EventId } from "../deposits/Deposit.js"
import type { TenantId, WalletId } from "../kernel/Ids.js"
import { compareIds } from "../kernel/Int64Id.js"
import { MemoryDatabase } from "../memory/MemoryDatabase.js"
import { localKey } from "../wallets/WalletKey.js"
import {
  apps,
  events,
  deposits,
  depositTotals,
  keyOf,
  observedLogs,
  sweepTasks,
  tenants,
  tenantSettings,
  walletKeys,
  wallets
} from "../memory/MemoryTables.js"
import { queuedTask } from "../sweeps/QueuedTask.js"
import { isTerminal, type SweepTaskId } from "../sweeps/SweepTask.js"
import { appendEvents } from "../memory/MemoryOutbox.js"
import { newSettingsRow } from "../memory/SettingsRows.js"
import { StorageFixtures } from "./StorageFixtures.js"

const fixtureKey = { keyId: "fixture", blob: new Uint8Array([1, 2, 3]) }

const byLog = (a: { txid: string; logIndex: number }, b: { txid: string; logIndex: number }) =>
  a.txid < b.txid ? -1 : a.txid > b.txid ? 1 : a.logIndex - b.logIndex

export const make = Effect.gen(function*() {
  const db = yield* MemoryDatabase
  const walletRow = (id: WalletId) => {
    const row = db.table(wallets).get(id)
    if (row === undefined) throw new Error(`no wallet ${id}`)
    return row
  }
  return StorageFixtures.of({
    scope: (network, options) =>
      Effect.flatMap(Clock.currentTimeMillis, (millis) =>
        db.atomically(() => {
          const now = new Date(millis)
          const tenantId = db.nextId("tenant") as TenantId
          db.table(tenants).put(tenantId, { id: tenantId, name: `fixture-${tenantId}`, status: "active", expiresAt: null, createdAt: now, updatedAt: now })
          const appId = db.nextId("app")
          db.table(apps).put(appId, {
            appId,
            tenantId,
            network,
            secret: fixtureKey,
            webhookKey: fixtureKey,
            confirmationRule: options?.confirmationRule ?? "solidified",
            depositMinimum: null,
            createdAt: now,
            secretRotatedAt: now
          })
          return { tenantId, network, appId }
        })),
    wallet: (scope, fields) =>
      Effect.flatMap(Clock.currentTimeMillis, (millis) =>
        db.atomically(() => {
          const id = db.nextId("wallet") as WalletId
          const address = fields?.address ?? `TFixtureWallet${id.padStart(20, "0")}`
          const customId = fields?.customId ?? `fixture-${id}`
          const synced = (fields?.balanceBlock ?? 0n) > 0n
          db.table(wallets).put(id, {
            id,
            tenantId: scope.tenantId,
            network: scope.network,
            address,
            customId,
            balanceUsdt: synced ? fields?.balanceUsdt ?? 0n : null,
            balanceTrx: synced ? fields?.balanceTrx ?? 0n : null,
            balanceBlock: fields?.balanceBlock ?? 0n,
            collectedUsdt: 0n,
            lastCollectedAt: null,
            createdAt: fields?.createdAt ?? new Date(millis),
            balanceSyncedAt: null,
            balanceStaleFrom: fields?.balanceStaleFrom ?? null
          })
          db.table(walletKeys).put(id, fields?.key ?? localKey(fixtureKey))
          return { id, address, customId }
        })),
    walletCollected: (wallet, collectedUsdt, lastCollectedAt) =>
      db.atomically(() => {
        db.table(wallets).update(wallet, (row) => ({ ...row, collectedUsdt, lastCollectedAt }))
      }),
    tenantStatus: (tenantId, status, expiresAt) =>
      db.atomically(() => void db.table(tenants).update(tenantId, (tenant) => ({ ...tenant, status, expiresAt }))),
    seedDeposit: (scope, wallet, fields = {}) =>
      db.atomically(() => {
        const id = db.nextId("deposit") as DepositId
        const eventId = db.nextId("taskEvent") as EventId
        const txid = fields.txid ?? id.padStart(64, "d")
        const logIndex = fields.logIndex ?? 0
        const status = fields.status ?? "confirmed"
        const amount = fields.amount ?? 1_000_000n
        const confirmationType = fields.confirmationType ?? "solidified"
        const createdAt = fields.createdAt ?? new Date("2026-01-01T00:00:03.456Z")
        const rows = db.table(deposits)
        if (rows.find((d) => d.network === scope.network && d.txid === txid && d.logIndex === logIndex) !== undefined) {
          throw new Error(`deposits: log ${txid}/${logIndex} is already a deposit`)
        }
        rows.put(id, {
          id,
          eventId,
          tenantId: scope.tenantId,
          network: scope.network,
          status,
          walletId: wallet.id,
          customId: wallet.customId,
          address: wallet.address,
          source: fields.source ?? "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
          contract: fields.contract ?? "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf",
          amount,
          txid,
          logIndex,
          blockNumber: fields.blockNumber ?? 1_000n,
          blockHash: fields.blockHash === undefined ? id.padStart(64, "b") : fields.blockHash,
          blockTime: fields.blockTime ?? new Date("2026-01-01T00:00:00.123Z"),
          createdAt,
          revision: fields.revision ?? 1,
          confirmationType,
          confirmations: fields.confirmations === undefined ? (confirmationType === "solidified" ? null : 1) : fields.confirmations,
          updatedAt: createdAt
        })
        if (status === "confirmed") {
          const totals = db.table(depositTotals)
          const key = keyOf(scope.tenantId, scope.network)
          totals.put(key, (totals.get(key) ?? 0n) + amount)
        }
        return { id, eventId, txid }
      }),
    markBalanceStale: (walletId, block) =>
      db.atomically(() =>
        void db.table(wallets).update(walletId, (w) => ({
          ...w,
          balanceStaleFrom: w.balanceStaleFrom !== null && w.balanceStaleFrom > block ? w.balanceStaleFrom : block
        }))
      ),
    walletBalances: (walletId) =>
      db.atomically(() => {
        const w = walletRow(walletId)
        return { usdt: w.balanceUsdt, trx: w.balanceTrx, block: w.balanceBlock, syncedAt: w.balanceSyncedAt, staleFrom: w.balanceStaleFrom }
      }),
    observedLogs: (network) =>
      db.atomically(() =>
        db.table(observedLogs).filter((log) => log.network === network).sort(byLog).map((log) => ({
          txid: log.txid,
          logIndex: log.logIndex,
          blockNumber: log.blockNumber,
          blockHash: log.blockHash,
          walletId: log.walletId,
          amount: log.amount,
          booked: log.booked
        }))
      ),
    markLogBooked: (network, txid, logIndex) =>
      db.atomically(() => void db.table(observedLogs).update(keyOf(network, txid, logIndex), (log) => ({ ...log, booked: true }))),
    automationSettings: (scope, fields) =>
      db.atomically(() => {
        const table = db.table(tenantSettings)
        const key = keyOf(scope.tenantId, scope.network)
        const row = table.get(key) ?? newSettingsRow(scope.tenantId, scope.network)
        table.put(key, {
          ...row,
          collectionAddress: fields.collectionAddress ?? row.collectionAddress,
          collectionWalletId: fields.collectionWalletId === undefined ? row.collectionWalletId : fields.collectionWalletId,
          automationEnabled: fields.enabled ?? row.automationEnabled,
          automationThreshold: fields.threshold ?? row.automationThreshold,
          automationIntervalMinutes: fields.intervalMinutes ?? row.automationIntervalMinutes,
          maxWalletTrxFee: fields.maxWalletTrxFee ?? row.maxWalletTrxFee,
          maxRentalCost: fields.maxRentalCost ?? row.maxRentalCost,
          rentalAllowed: fields.rentalAllowed ?? row.rentalAllowed,
          automationUpdatedAt: fields.updatedAt === undefined ? row.automationUpdatedAt : fields.updatedAt,
          automationLastRunAt: fields.lastRunAt === undefined ? row.automationLastRunAt : fields.lastRunAt,
          automationRoundClaimedUntil: fields.roundClaimedUntil === undefined ? row.automationRoundClaimedUntil : fields.roundClaimedUntil
        })
      }),
    automationRound: (scope) =>
      db.atomically(() => {
        const row = db.table(tenantSettings).get(keyOf(scope.tenantId, scope.network))
        return { lastRunAt: row?.automationLastRunAt ?? null, roundClaimedUntil: row?.automationRoundClaimedUntil ?? null }
      }),
    seedSweepTask: (scope, wallet, fields = {}) =>
      Effect.flatMap(Clock.currentTimeMillis, (millis) =>
        db.atomically(() => {
          const now = new Date(millis)
          const status = fields.status ?? "pending"
          const tasks = db.table(sweepTasks)
          // sweep_tasks_wallet_unfinished and sweep_tasks_signed_has_transaction.
          if (!isTerminal(status) && tasks.find((t) => t.walletId === wallet.id && !isTerminal(t.status)) !== undefined) {
            throw new Error(`sweep_tasks: wallet ${wallet.id} already has an unfinished task`)
          }
          if (["signed", "broadcast", "unknown"].includes(status) && fields.txid === undefined) {
            throw new Error(`sweep_tasks: a ${status} task needs its transaction`)
          }
          const id = db.nextId("taskEvent") as SweepTaskId
          const draft = {
            walletId: wallet.id,
            address: wallet.address,
            mode: "all" as const,
            requestedAmount: null,
            minimumAmount: null,
            destination: fields.destination ?? "TFixtureCollectionAddress0000000000",
            origin: "manual" as const,
            maxWalletTrxFee: 0n,
            prepareBy: now
          }
          tasks.put(id, {
            ...queuedTask(id, scope, draft, now),
            maxWalletTrxFee: null,
            status,
            transaction: fields.txid === undefined
              ? null
              : { txid: fields.txid, rawDataHex: "0a", signature: "0b", expiration: now, feeLimit: 1n },
            claimedBy: null,
            claimedUntil: null
          })
          return id
        })),
    event: (event) => db.atomically(() => appendEvents(db.table(events), [event])),
    sweptWalletBooks: (walletId) =>
      db.atomically(() => {
        const row = db.table(wallets).get(walletId)
        if (row === undefined) throw new Error(`no wallet ${walletId}`)
        return { collectedUsdt: row.collectedUsdt, lastCollectedAt: row.lastCollectedAt, balanceStaleFrom: row.balanceStaleFrom }
      }),
    scopeEvents: (scope) =>
      db.atomically(() =>
        db.table(events).filter((row) => row.tenantId === scope.tenantId && row.network === scope.network)
          .sort((a, b) => compareIds(a.id, b.id))
          .map((row) => ({ id: row.id, eventType: row.eventType, depositId: row.depositId, revision: row.revision, payload: row.payload }))
      ),
    transaction: db.transaction
  })
})

export const layer = Layer.effect(StorageFixtures, make)
