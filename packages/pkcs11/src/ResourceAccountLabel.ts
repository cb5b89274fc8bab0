import type { Kernel } from "@collector/core"

/**
 * The token label of a resource account's key: the deployment's prefix, then `resource-`, the
 * network and the tenant's ID (or `default` for the network's own account). One account per
 * network and tenant, so one label per account; an operator reads in the token whose stake a key
 * holds, and a wallet's label (prefix and digits) can never equal it.
 */
export const resourceAccountLabel = (labelPrefix: string, network: Kernel.Network, tenantId: Kernel.TenantId | null): string =>
  `${labelPrefix}resource-${network}-${tenantId ?? "default"}`
