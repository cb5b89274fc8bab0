import type { Kernel } from "@collector/core"
import { TronAddress } from "@collector/tron"
import { sha256 } from "@noble/hashes/sha2.js"
import type { Dice } from "../Dice.js"

/**
 * The collection address of one (tenant, network) outside every tenant's wallets: an address
 * the workload owns (its key is derived from the run's seed), one per scope (tenants' wallets
 * come from the service's own key generation).
 */
export const collectionAddressFor = (seed: string, tenantId: Kernel.TenantId, network: Kernel.Network): string =>
  TronAddress.fromSecretKey(sha256(new TextEncoder().encode(`${seed}/collection/${tenantId}/${network}`)))

/**
 * What a scope's collection address is: an outside address, one of the scope's own wallets (its
 * sweeps into it are the tenant's money moving, no deposit), a wallet of another tenant on the
 * network (its sweeps into it are deposits of that tenant), or `later`: unset at first, an
 * outside address once set.
 */
export type CollectionKind = "outside" | "own-wallet" | "other-tenant" | "later"

/** The kind of a new scope's collection address: mostly outside, some wallets of either kind, some set later. */
export const drawCollectionKind = (dice: Dice): CollectionKind => {
  const roll = dice.int(1, 20)
  return roll <= 3 ? "later" : roll <= 6 ? "own-wallet" : roll <= 9 ? "other-tenant" : "outside"
}
