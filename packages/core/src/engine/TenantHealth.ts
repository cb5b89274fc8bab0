/**
 * What a tenant may read of a worker component's health: its state and a short reason from this
 * closed list, never the component's own detail. That detail is for the operator (`/readyz`, the
 * logs): it can carry a node's URL (and a key in its path), another tenant's wallet, or counts
 * across the network.
 */
export const tenantReasons = {
  ok: "running",
  degraded: "running with a problem; the operator has the details",
  stopped: "stopped; the operator has the details",
  stale: "not heard from within the last minute"
} as const

export type TenantVisibleStatus = keyof typeof tenantReasons

const isKnown = (status: string): status is TenantVisibleStatus => Object.hasOwn(tenantReasons, status)

/** The state a tenant sees (an unknown one is `degraded`) and its reason. */
export const tenantHealth = (status: string): { readonly status: TenantVisibleStatus; readonly detail: string } => {
  const shown = isKnown(status) ? status : "degraded"
  return { status: shown, detail: tenantReasons[shown] }
}
