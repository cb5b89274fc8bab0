import { Notifications, type Webhook } from "@collector/core"
import { type ConfigError, Effect, Layer } from "effect"
import * as DnsWebhookTargets from "./DnsWebhookTargets.js"
import * as HttpsDeliveryTransport from "./HttpsDeliveryTransport.js"
import { webhookDeliveryConfig, type WebhookDeliverySettings } from "./WebhookDeliveryConfig.js"

/** What the notifier delivers through: URL checks by DNS and HTTPS POSTs, both after the operator's settings. */
export const layer = (settings: WebhookDeliverySettings): Layer.Layer<Webhook.WebhookTargets | Notifications.DeliveryTransport> =>
  Layer.merge(
    DnsWebhookTargets.layer({ allowPrivateTargets: settings.allowPrivateTargets }),
    Layer.succeed(Notifications.DeliveryTransport, HttpsDeliveryTransport.fromSettings(settings))
  ).pipe(Layer.tap(() => (settings.allowPrivateTargets ? DnsWebhookTargets.privateTargetsWarning : Effect.void)))

/** With the settings of `config` (by default WEBHOOK_ALLOW_PRIVATE_TARGETS and WEBHOOK_EXTRA_CA_FILE). */
export const layerConfig = (
  config: Effect.Effect<WebhookDeliverySettings, ConfigError.ConfigError> = webhookDeliveryConfig
): Layer.Layer<Webhook.WebhookTargets | Notifications.DeliveryTransport, ConfigError.ConfigError> => Layer.unwrapEffect(Effect.map(config, layer))
