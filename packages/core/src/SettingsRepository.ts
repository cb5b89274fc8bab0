import { Context, type Effect } from "effect"
import type { WalletId } from "./Ids"
import type { TenantScope } from "./Scope"
import type { AutomationPolicy, CollectionSetting, TenantSettings, WebhookConfig } from "./Settings"

/** Port: the per-scope settings row; writes are upserts returning what was stored. */
export class SettingsRepository extends Context.Tag("@collector/core/SettingsRepository")<
  SettingsRepository,
  {
    readonly get: (scope: TenantScope) => Effect.Effect<TenantSettings>
    readonly setCollection: (scope: TenantScope, address: string, walletId: WalletId | null) => Effect.Effect<CollectionSetting>
    readonly setAutomation: (scope: TenantScope, policy: Omit<AutomationPolicy, "updatedAt">) => Effect.Effect<AutomationPolicy>
    readonly setWebhook: (scope: TenantScope, config: Omit<WebhookConfig, "updatedAt">) => Effect.Effect<WebhookConfig>
  }
>() {}
