import type { Network, TenantId } from "@collector/core"
import { TronAddress } from "@collector/tron"
import { sha256 } from "@noble/hashes/sha2.js"

/**
 * The collection address of one (tenant, network): an address the workload owns (its key is
 * derived from the run's seed), one per scope and outside every tenant's wallets (theirs come
 * from the service's own key generation).
 */
export const collectionAddressFor = (seed: string, tenantId: TenantId, network: Network): string =>
  TronAddress.fromSecretKey(sha256(new TextEncoder().encode(`${seed}/collection/${tenantId}/${network}`)))
