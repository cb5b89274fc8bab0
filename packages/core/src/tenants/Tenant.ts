import type { ConfirmationRule } from "../settings/ConfirmationRule.js"
import type { AppId, TenantId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"
import * as RowRule from "../kernel/RowRule.js"

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

/** The fields of a tenant its availability depends on. */
export type TenantAvailabilityFields = Pick<Tenant, "status" | "expiresAt">

/**
 * A tenant is served (its API calls, its automation) only while active and not past its expiry.
 * Written as a rule so that a storage adapter's query renders the same condition.
 */
export const tenantAvailability: RowRule.Rule<TenantAvailabilityFields, { readonly now: Date }> = RowRule.all<
  TenantAvailabilityFields,
  { readonly now: Date }
>(
  RowRule.compare(RowRule.field<TenantAvailabilityFields>("status"), "=", RowRule.literal("active")),
  RowRule.any(
    RowRule.isNull(RowRule.field<TenantAvailabilityFields>("expiresAt")),
    RowRule.compare(RowRule.field<TenantAvailabilityFields>("expiresAt"), ">", RowRule.param<{ readonly now: Date }>("now"))
  )
)

/** A tenant may call the API only while active and not past its expiry. */
export const isTenantAvailable = (tenant: TenantAvailabilityFields, now: Date): boolean =>
  RowRule.holds(tenantAvailability, tenant, { now })
