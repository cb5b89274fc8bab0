import type { TenantId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"

/**
 * Where a sealed value is stored: its table, its column and its row. The SecretBox binds it to the
 * sealed value, so a value copied to another row or column no longer opens there.
 *
 * The row is named by a key the row keeps for life and that is known before the row exists (a
 * value is sealed before it is inserted): an app by its tenant and network (unique, never changed),
 * a wallet key by its wallet's address (unique, derived from the key itself).
 */
export interface SealContext {
  readonly table: string
  readonly column: string
  readonly row: string
}

/** The app secret of a tenant's app on a network (`apps.secret_sealed`). */
export const appSecretContext = (tenantId: TenantId, network: Network): SealContext => ({
  table: "apps",
  column: "secret_sealed",
  row: `${tenantId}/${network}`
})

/** The webhook key of a tenant's app on a network (`apps.webhook_key_sealed`). */
export const webhookKeyContext = (tenantId: TenantId, network: Network): SealContext => ({
  table: "apps",
  column: "webhook_key_sealed",
  row: `${tenantId}/${network}`
})

/** The private key of the wallet at `address` (`wallet_keys.sealed_key`). */
export const walletKeyContext = (address: string): SealContext => ({ table: "wallet_keys", column: "sealed_key", row: address })

/** The known value sealed at first start, which tells whether the master key is the right one. */
export const keyCheckContext: SealContext = { table: "master_key_check", column: "sealed", row: "1" }
