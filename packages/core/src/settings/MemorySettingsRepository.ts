import { Clock, Effect, Layer } from "effect"
import type { TenantId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"
import type { StoredSettings } from "./Settings.js"
import { SettingsRepository } from "./SettingsRepository.js"
import { keyOf, tenants, type TenantSettingsRow, tenantSettings, wallets } from "../memory/MemoryTables.js"
import { MemoryDatabase } from "../memory/MemoryDatabase.js"
import { newSettingsRow, storedPolicy } from "../memory/SettingsRows.js"

const storedOf = (row: TenantSettingsRow): StoredSettings => ({
  collection: { address: row.collectionAddress, walletId: row.collectionWalletId, updatedAt: row.collectionUpdatedAt },
  automation: row.automationUpdatedAt === null ? null : storedPolicy(row),
  webhook: { url: row.webhookUrl, enabled: row.webhookEnabled, updatedAt: row.webhookUpdatedAt }
})

/** One settings row per scope, created by the first write. */
export const make = Effect.gen(function*() {
  const db = yield* MemoryDatabase
  const rows = db.table(tenantSettings)
  const tenantRows = db.table(tenants)
  const walletRows = db.table(wallets)

  const upsert = (tenantId: TenantId, network: Network, change: (row: TenantSettingsRow, at: Date) => TenantSettingsRow) =>
    Effect.flatMap(Clock.currentTimeMillis, (millis) =>
      db.atomically(() => {
        if (!tenantRows.has(tenantId)) throw new Error(`tenant_settings: no tenant ${tenantId}`)
        const key = keyOf(tenantId, network)
        const row = change(rows.get(key) ?? newSettingsRow(tenantId, network), new Date(millis))
        if (row.collectionWalletId !== null && !walletRows.has(row.collectionWalletId)) {
          throw new Error(`tenant_settings: no wallet ${row.collectionWalletId}`)
        }
        rows.put(key, row)
        return row
      }))

  return SettingsRepository.of({
    get: (scope) =>
      db.atomically(() => storedOf(rows.get(keyOf(scope.tenantId, scope.network)) ?? newSettingsRow(scope.tenantId, scope.network))),
    setCollection: (scope, address, walletId) =>
      Effect.map(
        upsert(scope.tenantId, scope.network, (row, at) => ({ ...row, collectionAddress: address, collectionWalletId: walletId, collectionUpdatedAt: at })),
        (row) => storedOf(row).collection
      ),
    setAutomation: (scope, policy) =>
      Effect.map(
        upsert(scope.tenantId, scope.network, (row, at) => ({
          ...row,
          automationEnabled: policy.enabled,
          automationThreshold: policy.threshold,
          automationIntervalMinutes: policy.intervalMinutes,
          maxWalletTrxFee: policy.maxWalletTrxFee,
          maxRentalCost: policy.maxRentalCost,
          rentalAllowed: policy.rentalAllowed,
          automationUpdatedAt: at
        })),
        storedPolicy
      ),
    setWebhook: (scope, config) =>
      Effect.map(
        upsert(scope.tenantId, scope.network, (row, at) => ({ ...row, webhookUrl: config.url, webhookEnabled: config.enabled, webhookUpdatedAt: at })),
        (row) => storedOf(row).webhook
      )
  })
})

export const layer = Layer.effect(SettingsRepository, make)
