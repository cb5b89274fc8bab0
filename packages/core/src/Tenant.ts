import type { ConfirmationRule } from "./ConfirmationRule.js"
import type { AppId, TenantId } from "./Ids.js"
import type { Network } from "./Network.js"

export type TenantStatus = "active" | "disabled" | "deleted"

export interface Tenant {
  readonly id: TenantId
  readonly name: string
  readonly status: TenantStatus
  readonly expiresAt: Date | null
  readonly createdAt: Date
}

/** One app credential per (tenant, network): it selects both the account and the network. */
export interface AppSummary {
  readonly appId: AppId
  readonly network: Network
  readonly confirmationRule: ConfirmationRule
  /** The smallest transfer booked as this tenant's deposit on the network (base units); null: the network's. */
  readonly depositMinimum: bigint | null
}

export interface TenantWithApps extends Tenant {
  readonly apps: ReadonlyArray<AppSummary>
}

/** A tenant may call the API only while active and not past its expiry. */
export const isTenantAvailable = (tenant: Pick<Tenant, "status" | "expiresAt">, now: Date): boolean =>
  tenant.status === "active" && (tenant.expiresAt === null || tenant.expiresAt.getTime() > now.getTime())
