import { Context, type Effect } from "effect"
import type { ConfirmationRule } from "../ConfirmationRule"
import type { WalletId } from "../Ids"
import type { Network } from "../Network"
import type { OutboxEvent } from "../notifications/OutboxEvent"
import type { TenantScope } from "../Scope"

export interface FixtureScope extends TenantScope {
  readonly appId: string
}

export interface FixtureWalletFields {
  readonly address?: string
  readonly customId?: string
  /** With `balanceBlock` above 0: the wallet as last synchronised. */
  readonly balanceUsdt?: bigint
  readonly balanceTrx?: bigint
  readonly balanceBlock?: bigint
  readonly createdAt?: Date
}

export interface FixtureWallet {
  readonly id: WalletId
  readonly address: string
  readonly customId: string
}

export interface FixtureWebhook {
  readonly url: string
  readonly enabled: boolean
}

/**
 * Test-only writes for the contract suites: states the ports under test need but do not create
 * themselves, written straight into each storage (the memory tables, or SQL rows). Each
 * implementation writes the same facts; nothing here decides anything.
 */
export class StorageFixtures extends Context.Tag("@collector/core/testing/StorageFixtures")<
  StorageFixtures,
  {
    /** A new tenant (unique name) with an app on `network`, active, never expiring. */
    readonly scope: (network: Network, options?: { readonly confirmationRule?: ConfirmationRule }) => Effect.Effect<FixtureScope>
    /** A wallet of the scope; address and custom ID are made unique unless given. */
    readonly wallet: (scope: TenantScope, fields?: FixtureWalletFields) => Effect.Effect<FixtureWallet>
    /** Stores the event through the outbox's own writer, as the state change it reports would. */
    readonly event: (event: OutboxEvent) => Effect.Effect<void>
    /**
     * The scope's webhook configuration, as saving it leaves the settings row (created with the
     * schema's defaults when the scope has none). Until the memory SettingsRepository exists.
     */
    readonly webhook: (scope: TenantScope, webhook: FixtureWebhook) => Effect.Effect<void>
  }
>() {}
