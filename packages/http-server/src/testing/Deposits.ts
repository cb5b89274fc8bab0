import type { SeedWallet } from "@collector/postgres/testing"
import type { TestTenant } from "./Tenants.js"
import type { WalletIdentity } from "./Wallets.js"

/** A deposit list target; each key and value percent-encoded as a client would send it. */
export const depositsTarget = (params: Readonly<Record<string, string>> = {}) => {
  const query = Object.entries(params).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&")
  return query === "" ? "/open/v1/deposits" : `/open/v1/deposits?${query}`
}

/** A wallet created through the API, as the deposit seeder needs it. */
export const seedWalletOf = (tenant: TestTenant, network: "main" | "nile", wallet: WalletIdentity): SeedWallet => ({
  tenantId: tenant.id,
  network,
  id: wallet.id,
  address: wallet.address,
  customId: wallet.custom_id
})

/** The members of the deposit record in the order the server writes them (and notifications carry them). */
export const depositKeys = [
  "id", "event_id", "event_type", "status", "wallet_id", "custom_id", "chain", "network", "asset", "token_standard", "decimals",
  "address", "source", "contract", "amount", "txid", "log_index", "block_number", "block_time", "created_at", "revision",
  "confirmation_type", "confirmations", "block_hash"
]
