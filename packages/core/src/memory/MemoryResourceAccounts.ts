import { Effect, Layer, Option } from "effect"
import { ResourceAccountExists, ResourceAccounts, type StoredResourceAccount } from "../delegation/ResourceAccounts.js"
import type { TenantId } from "../Ids.js"
import type { Network } from "../Network.js"
import { tableDef } from "./MemoryDatabase.js"
import { MemoryDatabase } from "./MemoryDatabase.js"
import { keyOf } from "./MemoryTables.js"

const resourceAccounts = tableDef<string, StoredResourceAccount>("resource_accounts")

const placeOf = (network: Network, tenantId: TenantId | null) => keyOf(network, tenantId ?? "")

const byPlace = (a: StoredResourceAccount, b: StoredResourceAccount) =>
  a.network.localeCompare(b.network) ||
  (a.tenantId === b.tenantId ? 0 : a.tenantId === null ? -1 : b.tenantId === null ? 1 : BigInt(a.tenantId) < BigInt(b.tenantId) ? -1 : 1)

export const make = Effect.gen(function*() {
  const db = yield* MemoryDatabase
  const rows = db.table(resourceAccounts)
  return ResourceAccounts.of({
    create: (account) =>
      Effect.flatten(db.atomically(() => {
        const place = placeOf(account.network, account.tenantId)
        const existing = rows.get(place)
        if (existing !== undefined) return Effect.fail(new ResourceAccountExists({ existing }))
        rows.put(place, account)
        return Effect.succeed(account)
      })),
    find: (network, tenantId) => db.atomically(() => Option.fromNullable(rows.get(placeOf(network, tenantId)))),
    list: () => db.atomically(() => rows.filter(() => true).sort(byPlace))
  })
})

export const layer = Layer.effect(ResourceAccounts, make)
