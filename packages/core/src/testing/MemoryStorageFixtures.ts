import { Clock, Effect, Layer } from "effect"
import type { TenantId, WalletId } from "../Ids"
import { compareIds } from "../Int64Id"
import { MemoryDatabase } from "../memory/MemoryDatabase"
import { appendEvents } from "../memory/MemoryOutbox"
import { apps, events, tenants, walletKeys, wallets } from "../memory/MemoryTables"
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
            balanceStaleFrom: fields?.balanceStaleFrom ?? null
          })
          db.table(walletKeys).put(id, fields?.sealedKey ?? fixtureKey)
          return { id, address, customId }
        })),
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
    outboxEvent: (event) => db.atomically(() => appendEvents(db.table(events), [event])),
    transaction: db.transaction
  })
})

export const layer = Layer.effect(StorageFixtures, make)
