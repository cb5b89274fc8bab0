import { Context, type Effect, type Option } from "effect"
import type { ConfirmationRule } from "../settings/ConfirmationRule.js"
import type { AppId, TenantId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"
import type { Sealed } from "../secrets/SecretBox.js"
import type { TenantStatus, TenantWithApps } from "./Tenant.js"
import type { TenantHasNoApp, TenantNameTaken, TenantNotFound } from "./TenantErrors.js"

export interface NewAppCredential {
  readonly network: Network
  readonly secret: Sealed
  readonly webhookKey: Sealed
  readonly confirmationRule: ConfirmationRule
}

/** What authentication needs about one app: its sealed secret and its tenant's availability. */
export interface StoredCredential {
  readonly appId: AppId
  readonly tenantId: TenantId
  readonly network: Network
  readonly secret: Sealed
  readonly webhookKey: Sealed
  readonly confirmationRule: ConfirmationRule
  readonly tenantStatus: TenantStatus
  readonly tenantExpiresAt: Date | null
}

/**
 * Port: tenants and their per-network app credentials. Storage failures are defects
 * (the caller cannot repair them); the typed errors are the operator's mistakes.
 */
export class TenantRepository extends Context.Tag("@collector/core/TenantRepository")<
  TenantRepository,
  {
    /**
     * A tenant ID no tenant has or will be given but by `create(…, id)`: drawn before the tenant is
     * stored, so that its app credentials can be sealed for their place (`appSecretContext`).
     */
    readonly reserveTenantId: Effect.Effect<TenantId>
    /** Stores a tenant and its apps, under `id` when given (from `reserveTenantId`). */
    readonly create: (name: string, apps: ReadonlyArray<NewAppCredential>, id?: TenantId) => Effect.Effect<TenantWithApps, TenantNameTaken>
    readonly list: Effect.Effect<ReadonlyArray<TenantWithApps>>
    /** Finds a tenant by its ID or, failing that, by its name. */
    readonly find: (reference: string) => Effect.Effect<TenantWithApps, TenantNotFound>
    readonly setStatus: (id: TenantId, status: TenantStatus) => Effect.Effect<void>
    readonly setExpiry: (id: TenantId, expiresAt: Date | null) => Effect.Effect<void>
    /** Replaces the app secret and revokes every access token issued under the old one. */
    readonly replaceSecret: (id: TenantId, network: Network, secret: Sealed) => Effect.Effect<AppId, TenantHasNoApp>
    readonly replaceWebhookKey: (id: TenantId, network: Network, key: Sealed) => Effect.Effect<AppId, TenantHasNoApp>
    readonly setConfirmationRule: (id: TenantId, network: Network, rule: ConfirmationRule) => Effect.Effect<void, TenantHasNoApp>
    /** Sets (or, with null, clears) the tenant's own deposit minimum on the network. */
    readonly setDepositMinimum: (id: TenantId, network: Network, minimum: bigint | null) => Effect.Effect<void, TenantHasNoApp>
    readonly credential: (appId: AppId) => Effect.Effect<Option.Option<StoredCredential>>
  }
>() {}
