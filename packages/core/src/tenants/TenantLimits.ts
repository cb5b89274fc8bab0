import { Config, Context, Layer } from "effect"
import * as ConfigValue from "../config/ConfigValue.js"
import * as Setting from "../config/Setting.js"
import { estimateCost } from "../sweeps/EstimateBudget.js"

/** The operator's bounds on what one tenant may make the service do or keep. */
export interface TenantLimitsShape {
  /** Wallets a tenant may hold, over all its networks; creating one more is refused. */
  readonly maxWalletsPerTenant: number
  /**
   * Node requests a tenant's sweep estimates may spend per minute (a bucket that refills
   * evenly), out of the operator's shared node budget; an estimate past it is refused whole.
   */
  readonly estimateNodeRequestsPerMinute: number
}

export const defaultTenantLimits: TenantLimitsShape = {
  maxWalletsPerTenant: 1_000_000,
  estimateNodeRequestsPerMinute: 1200
}

/** The largest estimate the contract allows (100 wallets) must fit in a full bucket. */
const smallestEstimateBudget = estimateCost(100)

/** `TENANT_MAX_WALLETS`, `TENANT_ESTIMATE_NODE_REQUESTS_PER_MINUTE`, read by the API. */
export const tenantLimitsSettings = {
  maxWalletsPerTenant: Setting.declare({
    name: "TENANT_MAX_WALLETS",
    default: defaultTenantLimits.maxWalletsPerTenant,
    description:
      "Wallets one tenant may hold over all its networks; creating one more is 409 `BUSINESS_CONFLICT` (not saved with its `request_id`). At least 1. Read by the API (`packages/core/src/tenants/TenantLimits.ts`)."
  }, (name) => ConfigValue.integer(name, { min: 1, unit: "wallets" })),
  estimateNodeRequestsPerMinute: Setting.declare({
    name: "TENANT_ESTIMATE_NODE_REQUESTS_PER_MINUTE",
    default: defaultTenantLimits.estimateNodeRequestsPerMinute,
    description:
      `Node requests a tenant's sweep estimates may spend per minute and network, in each API process (an existing wallet counts 6, an estimate 1 more); past it 429 \`RATE_LIMITED\` with \`Retry-After\`. At least ${smallestEstimateBudget}, the cost of the largest estimate (100 wallets).`
  }, (name) => ConfigValue.integer(name, { min: smallestEstimateBudget, unit: "node requests" }))
}

export const tenantLimitsConfig: Config.Config<TenantLimitsShape> = Config.all(tenantLimitsSettings)

/** The tenant limits; the defaults where none are provided. */
export class TenantLimits extends Context.Reference<TenantLimits>()("@collector/core/TenantLimits", {
  defaultValue: () => defaultTenantLimits
}) {
  /** `settings` over the defaults. */
  static readonly layer = (settings: Partial<TenantLimitsShape> = {}) => Layer.succeed(TenantLimits, { ...defaultTenantLimits, ...settings })
  /** The settings of `config` (by default the TENANT_* variables). */
  static readonly layerConfig = (config: Config.Config<TenantLimitsShape> = tenantLimitsConfig) => Layer.effect(TenantLimits, config)
}
