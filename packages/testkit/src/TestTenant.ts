import type { Kernel, Settings, Tenants } from "@collector/core"

/**
 * A tenant as a kit created it, with what the operator hands the tenant at provisioning: the app
 * credential of its one network. The secrets are plain text here (they are test secrets, and a
 * tenant's receiver is configured with the text): `webhookKey` is the base64 key that opens the
 * webhook envelopes, as `receiveWebhook` of @collector/sdk takes it.
 */
export interface TestTenant {
  readonly id: Kernel.TenantId
  readonly name: string
  readonly network: Kernel.Network
  /** The (tenant, network) scope everything of the tenant lives in. */
  readonly scope: Tenants.TenantScope
  readonly appId: Kernel.AppId
  readonly appSecret: string
  readonly webhookKey: string
}

/** What a new tenant is set up with; anything left out stays as production leaves a new tenant. */
export interface TenantOptions {
  /** Unique among the kit's tenants; `tenant-<n>` by default. */
  readonly name?: string
  /** When a deposit counts (default `solidified`, 19 blocks below the head, as in production). */
  readonly confirmationRule?: Settings.ConfirmationRule
  /** The tenant's webhook URL, checked under the production rules (https, port 443); none by default. */
  readonly webhookUrl?: string
}

/** A wallet of a tenant: its ID and the address to pay. */
export interface TestWallet {
  readonly id: Kernel.WalletId
  readonly address: string
  readonly customId: string
}
