import { Effect, Layer, Option } from "effect"
import { ResourceAccountExists, ResourceAccounts, type StoredResourceAccount } from "./ResourceAccounts.js"
import type { TenantId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"
import { MemoryDatabase } from "../memory/MemoryDatabase.js"
import { keyOf, resourceAccounts } from "../memory/MemoryTables.js"

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
        if (existing !== undefined) return Effect.fail(new ResourceAccountExists({ existing: existing.account }))
        rows.put(place, { rowId: db.nextId("resourceAccount"), account })
        return Effect.succeed(account)
      })),
    find: (network, tenantId) => db.atomically(() => Option.map(Option.fromNullable(rows.get(placeOf(network, tenantId))), (row) => row.account)),
    list: () => db.atomically(() => rows.filter(() => true).map((row) => row.account).sort(byPlace))
  })
})

export const layer = Layer.effect(ResourceAccounts, make)
