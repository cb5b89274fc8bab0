import { Context, type Effect } from "effect"
import type { WalletId } from "../kernel/Ids.js"
import type { TenantScope } from "../tenants/Scope.js"
import type { AutomationPolicy, CollectionSetting, StoredSettings, WebhookConfig } from "./Settings.js"

/**
 * Port: the per-scope settings row; writes are upserts returning what was stored. A scope never
 * written reads as unbound, without webhook and with no policy (`effectiveSettings` applies the
 * default policy).
 */
export class SettingsRepository extends Context.Tag("@collector/core/SettingsRepository")<
  SettingsRepository,
  {
    readonly get: (scope: TenantScope) => Effect.Effect<StoredSettings>
    readonly setCollection: (scope: TenantScope, address: string, walletId: WalletId | null) => Effect.Effect<CollectionSetting>
    readonly setAutomation: (scope: TenantScope, policy: Omit<AutomationPolicy, "updatedAt">) => Effect.Effect<AutomationPolicy>
    readonly setWebhook: (scope: TenantScope, config: Omit<WebhookConfig, "updatedAt">) => Effect.Effect<WebhookConfig>
  }
>() {}
