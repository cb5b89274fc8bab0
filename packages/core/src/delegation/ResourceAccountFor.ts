import { Effect, Option } from "effect"
import type { TenantId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"
import { ResourceAccounts, type StoredResourceAccount } from "./ResourceAccounts.js"

/** The tenant's own account wins over the network's default; without either there is none. */
export const chooseResourceAccount = (
  own: Option.Option<StoredResourceAccount>,
  networkDefault: Option.Option<StoredResourceAccount>
): Option.Option<StoredResourceAccount> => Option.orElse(own, () => networkDefault)

/** The resource account that lends energy to sweeps of `tenantId` on `network`, if any. */
export const resourceAccountFor = (network: Network, tenantId: TenantId | null) =>
  Effect.gen(function*() {
    const accounts = yield* ResourceAccounts
    const own = tenantId === null ? Option.none() : yield* accounts.find(network, tenantId)
    return chooseResourceAccount(own, yield* accounts.find(network, null))
  })
