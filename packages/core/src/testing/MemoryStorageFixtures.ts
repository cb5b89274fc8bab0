import { Clock, Effect, Layer } from "effect"
import type { TenantId, WalletId } from "../Ids"
import { MemoryDatabase } from "../memory/MemoryDatabase"
import { appendEvents } from "../memory/MemoryOutbox"
import { apps, events, keyOf, tenants, tenantSettings, type TenantSettingsRow, walletKeys, wallets } from "../memory/MemoryTables"
import type { TenantScope } from "../Scope"
import { StorageFixtures } from "./StorageFixtures"

const fixtureKey = { keyId: "fixture", blob: new Uint8Array([1, 2, 3]) }

/** A settings row as the schema's defaults leave it. */
const defaultSettings = (scope: TenantScope): TenantSettingsRow => ({
  tenantId: scope.tenantId,
  network: scope.network,
  collectionAddress: "",
  collectionWalletId: null,
  collectionUpdatedAt: null,
  automationEnabled: false,
  automationThreshold: 100_000_000n,
  automationIntervalMinutes: 60,
  maxWalletTrxFee: 15_000_000n,
  maxRentalCost: 21_000_000n,
  rentalAllowed: false,
  automationUpdatedAt: null,
  webhookUrl: "",
  webhookEnabled: false,
  webhookUpdatedAt: null,
  automationLastRunAt: null,
  automationRoundClaimedUntil: null
})

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
    event: (event) => db.atomically(() => appendEvents(db.table(events), [event])),
    webhook: (scope, webhook) =>
      Effect.flatMap(Clock.currentTimeMillis, (millis) =>
        db.atomically(() => {
          const key = keyOf(scope.tenantId, scope.network)
          const change = { webhookUrl: webhook.url, webhookEnabled: webhook.enabled, webhookUpdatedAt: new Date(millis) }
          const current = db.table(tenantSettings).get(key)
          db.table(tenantSettings).put(key, current === undefined ? { ...defaultSettings(scope), ...change } : { ...current, ...change })
        }))
  })
})

export const layer = Layer.effect(StorageFixtures, make)
