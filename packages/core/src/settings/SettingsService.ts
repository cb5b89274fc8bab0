import { Context, Effect, Layer, Option } from "effect"
import type { TenantScope } from "../tenants/Scope.js"
import { type AutomationPolicy, effectiveSettings } from "./Settings.js"
import { SettingRejected } from "./SettingsErrors.js"
import { SettingsRepository } from "./SettingsRepository.js"
import { WalletRepository } from "../wallets/WalletRepository.js"
import { WebhookTargets } from "../webhook/WebhookTargets.js"

const make = Effect.gen(function*() {
  const settings = yield* SettingsRepository
  const wallets = yield* WalletRepository
  const targets = yield* WebhookTargets

  return {
    get: (scope: TenantScope) => Effect.map(settings.get(scope), effectiveSettings),

    /** The address is already known to be a valid TRON address; it may be one of our wallets. */
    setCollectionAddress: (scope: TenantScope, address: string) =>
      Effect.flatMap(wallets.findByAddress(scope, address), (wallet) =>
        settings.setCollection(scope, address, Option.getOrNull(Option.map(wallet, (w) => w.id)))),

    setAutomation: (scope: TenantScope, policy: Omit<AutomationPolicy, "updatedAt">) => settings.setAutomation(scope, policy),

    /** Checks a non-empty URL (syntax, DNS answers all public) before anything is stored. */
    checkWebhook: (url: string, enabled: boolean) =>
      Effect.gen(function*() {
        if (url === "") {
          if (enabled) return yield* new SettingRejected({ reason: "webhook URL required when enabled" })
          return
        }
        yield* targets.resolvePublic(url).pipe(
          Effect.tapError((e) =>
            e.detail === undefined ? Effect.void : Effect.logWarning("webhook URL refused").pipe(Effect.annotateLogs({ reason: e.reason, detail: e.detail }))),
          Effect.mapError((e) => new SettingRejected({ reason: e.reason }))
        )
      }),

    setWebhook: (scope: TenantScope, url: string, enabled: boolean) => settings.setWebhook(scope, { url, enabled })
  } as const
})

/** Account settings of one (tenant, network) scope. */
export class SettingsService extends Context.Tag("@collector/core/SettingsService")<SettingsService, Effect.Effect.Success<typeof make>>() {
  static readonly layer = Layer.effect(SettingsService, make)
}
