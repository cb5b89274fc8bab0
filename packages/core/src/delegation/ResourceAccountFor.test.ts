import { expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { TenantId } from "../kernel/Ids.js"
import { MemoryStorage } from "../memory/MemoryStorage.js"
import type { Network } from "../kernel/Network.js"
import { localKey } from "../wallets/WalletKey.js"
import { resourceAccountFor } from "./ResourceAccountFor.js"
import { ResourceAccounts } from "./ResourceAccounts.js"

const stored = (network: Network, tenantId: TenantId | null, address: string) => ({
  network,
  tenantId,
  address,
  key: localKey({ keyId: "k1", blob: new Uint8Array([9]) }),
  createdAt: new Date("2026-03-01T00:00:00Z")
})

const t1 = "1" as TenantId
const t2 = "2" as TenantId

it.effect("picks the tenant's own account, else the network's default, else none", () =>
  Effect.gen(function*() {
    const accounts = yield* ResourceAccounts
    yield* accounts.create(stored("nile", null, "TNileDefault"))
    yield* accounts.create(stored("nile", t1, "TNileOfTenant1"))
    yield* accounts.create(stored("main", t1, "TMainOfTenant1"))
    // Hand table: network, tenant -> address expected (undefined: no account).
    const table: ReadonlyArray<readonly [Network, TenantId | null, string | undefined]> = [
      ["nile", t1, "TNileOfTenant1"],
      ["nile", t2, "TNileDefault"],
      ["nile", null, "TNileDefault"],
      ["main", t1, "TMainOfTenant1"],
      ["main", t2, undefined],
      ["main", null, undefined]
    ]
    for (const [network, tenant, address] of table) {
      expect([network, tenant, Option.getOrUndefined(yield* resourceAccountFor(network, tenant))?.address]).toEqual([network, tenant, address])
    }
  }).pipe(Effect.provide(MemoryStorage)))
