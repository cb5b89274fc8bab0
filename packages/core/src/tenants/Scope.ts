import type { TenantId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"

/** Everything a tenant owns lives in one (tenant, network) scope; the other network is a stranger. */
export interface TenantScope {
  readonly tenantId: TenantId
  readonly network: Network
}
