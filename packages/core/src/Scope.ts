import type { TenantId } from "./Ids.js"
import type { Network } from "./Network.js"

/** Everything a tenant owns lives in one (tenant, network) scope; the other network is a stranger. */
export interface TenantScope {
  readonly tenantId: TenantId
  readonly network: Network
}
