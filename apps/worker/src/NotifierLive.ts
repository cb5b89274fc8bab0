import { Dispatcher } from "@collector/core"
import type { DispatcherSettings } from "@collector/core"
import { DeliveryTransport } from "@collector/core"
import { DnsWebhookTargets, HttpsDeliveryTransport, WebhookDeliveryConfig } from "@collector/outbound"
import { PgComponentStatus, PgSettingsRepository } from "@collector/postgres"
import { PgDeliveryLedger } from "@collector/postgres"
import { AesGcmSecretBox } from "@collector/vault"
import { Effect, Layer } from "effect"
import { checkpointFor, crashPointFromEnv } from "./CrashPoint"
import { EnvelopeSealerLive } from "./EnvelopeSealerLive"
import { notifierConfigFromEnv } from "./NotifierConfig"

/** Webhook URL checks and HTTPS delivery, both from the operator's WEBHOOK_* settings. */
export const OutboundLive = Layer.unwrapEffect(Effect.gen(function*() {
  const settings = yield* WebhookDeliveryConfig
  if (settings.allowPrivateTargets) {
    yield* Effect.logWarning(
      "WEBHOOK_ALLOW_PRIVATE_TARGETS is on: webhooks may go to private and loopback addresses and to ports other than 443"
    )
  }
  return Layer.merge(
    DnsWebhookTargets.layer({ allowPrivateTargets: settings.allowPrivateTargets }),
    Layer.succeed(DeliveryTransport, HttpsDeliveryTransport.fromSettings(settings))
  )
}))

/**
 * The dispatcher with its Postgres ledger and the real outbound parts; needs a SqlClient and the
 * MasterKeyring (webhook keys are sealed under the master key).
 */
export const dispatcherLayer = (settings: DispatcherSettings) =>
  Dispatcher.layer(settings).pipe(
    Layer.provide(Layer.mergeAll(PgDeliveryLedger.layer, PgSettingsRepository.layer, PgComponentStatus.layer, AesGcmSecretBox.layer, EnvelopeSealerLive, OutboundLive))
  )

/** The dispatcher with its NOTIFIER_* settings and, in the crash tests, SWEEP_CRASH_AT's checkpoint. */
export const DispatcherLive = Layer.unwrapEffect(Effect.gen(function*() {
  const settings = yield* notifierConfigFromEnv
  const checkpoint = checkpointFor(yield* crashPointFromEnv)
  return dispatcherLayer(checkpoint === undefined ? settings : { ...settings, checkpoint })
}))
