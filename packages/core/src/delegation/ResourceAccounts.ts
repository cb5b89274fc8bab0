import { Context, Data, type Effect, type Option } from "effect"
import type { TenantId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"
import type { ResourceAccount } from "./ResourceAccount.js"

/** A resource account as stored: the network's default (`tenantId` null) or one tenant's own. */
export interface StoredResourceAccount extends ResourceAccount {
  readonly tenantId: TenantId | null
  readonly createdAt: Date
}

/** The network (or tenant on it) already has a resource account: one per place, never replaced silently. */
export class ResourceAccountExists extends Data.TaggedError("ResourceAccountExists")<{ readonly existing: StoredResourceAccount }> {
  override get message() {
    const place = this.existing.tenantId === null ? `network ${this.existing.network}` : `tenant ${this.existing.tenantId} on ${this.existing.network}`
    return `${place} already has the resource account ${this.existing.address}`
  }
}

/**
 * Port: where the operator's resource accounts are kept, at most one per network and tenant.
 * The key is stored as a wallet's is (sealed blob or token label), never in plaintext.
 * Storage failures are defects.
 */
export class ResourceAccounts extends Context.Tag("@collector/core/ResourceAccounts")<
  ResourceAccounts,
  {
    /** Stores a new account; fails with ResourceAccountExists if its network and tenant have one. */
    readonly create: (account: StoredResourceAccount) => Effect.Effect<StoredResourceAccount, ResourceAccountExists>
    /** The account set exactly for this network and tenant (null: the network's default). */
    readonly find: (network: Network, tenantId: TenantId | null) => Effect.Effect<Option.Option<StoredResourceAccount>>
    /** Every account, by network, then the default before tenants, then tenant. */
    readonly list: () => Effect.Effect<ReadonlyArray<StoredResourceAccount>>
  }
>() {}
