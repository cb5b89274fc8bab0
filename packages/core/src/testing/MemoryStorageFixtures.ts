import { Clock, Effect, Layer } from "effect"
import type { TenantId, WalletId } from "../Ids"
import { MemoryDatabase } from "../memory/MemoryDatabase"
import { apps, sweepTasks, tenants, walletKeys, wallets } from "../memory/MemoryTables"
import { isTerminal, type SweepTaskId } from "../sweeps/SweepTask"
import { StorageFixtures } from "./StorageFixtures"

const fixtureKey = { keyId: "fixture", blob: new Uint8Array([1, 2, 3]) }

export const make = Effect.gen(function*() {
  const db = yield* MemoryDatabase
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
            balanceStaleFrom: null
          })
          db.table(walletKeys).put(id, fixtureKey)
          return { id, address, customId }
        })),
    walletCollected: (wallet, collectedUsdt, lastCollectedAt) =>
      db.atomically(() => {
        db.table(wallets).update(wallet, (row) => ({ ...row, collectedUsdt, lastCollectedAt }))
      }),
    walletSweepTask: (scope, wallet, status) =>
      Effect.flatMap(Clock.currentTimeMillis, (millis) =>
        db.atomically(() => {
          const tasks = db.table(sweepTasks)
          if (!isTerminal(status) && tasks.find((task) => task.walletId === wallet.id && !isTerminal(task.status)) !== undefined) {
            throw new Error(`sweep_tasks: wallet ${wallet.id} has an unfinished task already`)
          }
          const now = new Date(millis)
          const id = db.nextId("taskEvent") as SweepTaskId
          tasks.put(id, {
            id,
            tenantId: scope.tenantId,
            network: scope.network,
            walletId: wallet.id,
            address: wallet.address,
            mode: "all",
            requestedAmount: null,
            minimumAmount: null,
            amount: 0n,
            destination: "TFixtureDestination",
            origin: "manual",
            status,
            stage: "queued",
            reason: "",
            transaction: null,
            actualFee: 0n,
            actualBandwidthFee: null,
            feeWarning: null,
            feeSource: null,
            preparedEnergy: null,
            estimatedWalletTrxFee: null,
            maxWalletTrxFee: null,
            rental: null,
            createdAt: now,
            updatedAt: now,
            nextStepAt: now,
            prepareBy: now,
            version: 0,
            claimedBy: null,
            claimedUntil: null
          })
        }))
  })
})

export const layer = Layer.effect(StorageFixtures, make)
