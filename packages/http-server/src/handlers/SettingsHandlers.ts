import { HttpApiBuilder } from "@effect/platform"
import { Addresses, Automation, ContractApi, CurrentApp, Webhook } from "@collector/api"
import { Settings } from "@collector/core"
import { Effect, Schema } from "effect"
import { toEnvelope } from "../ErrorMapping.js"
import { idempotentWrite } from "./Idempotent.js"
import { presentAddresses, presentAutomation } from "./SettingsPresenter.js"

// These writes save no business rejection: a URL refused (say, by DNS) can be retried with the
// same request_id once fixed, and a saved success is replayed without checking again.
const nothingSaved = Schema.Never

export const SettingsHandlers = HttpApiBuilder.group(ContractApi, "settings", (handlers) =>
  Effect.gen(function*() {
    const settings = yield* Settings.SettingsService
    return handlers
      .handle("getAddresses", () =>
        Effect.gen(function*() {
          const app = yield* CurrentApp
          return presentAddresses(app.network, (yield* settings.get(app)).collection)
        }))
      .handle("setCollectionAddress", ({ payload }) =>
        Effect.gen(function*() {
          const app = yield* CurrentApp
          return yield* idempotentWrite(
            { tenantId: app.tenantId, network: app.network, operation: "settings.collection", requestId: payload.request_id },
            { success: Addresses, rejection: nothingSaved },
            Effect.map(settings.setCollectionAddress(app, payload.address), (c) => presentAddresses(app.network, c))
          )
        }).pipe(toEnvelope))
      .handle("getAutomation", () =>
        Effect.gen(function*() {
          const app = yield* CurrentApp
          return presentAutomation(app.network, (yield* settings.get(app)).automation)
        }))
      .handle("setAutomation", ({ payload }) =>
        Effect.gen(function*() {
          const app = yield* CurrentApp
          return yield* idempotentWrite(
            { tenantId: app.tenantId, network: app.network, operation: "settings.automation", requestId: payload.request_id },
            { success: Automation, rejection: nothingSaved },
            Effect.map(
              settings.setAutomation(app, {
                enabled: payload.enabled,
                threshold: BigInt(payload.threshold),
                intervalMinutes: payload.interval_minutes,
                maxWalletTrxFee: BigInt(payload.max_wallet_trx_fee),
                maxRentalCost: BigInt(payload.max_rental_cost),
                rentalAllowed: payload.rental_allowed
              }),
              (p) => presentAutomation(app.network, p)
            )
          )
        }).pipe(toEnvelope))
      .handle("getWebhook", () =>
        Effect.gen(function*() {
          const app = yield* CurrentApp
          const { webhook } = yield* settings.get(app)
          return { url: webhook.url, enabled: webhook.enabled }
        }))
      .handle("setWebhook", ({ payload }) =>
        Effect.gen(function*() {
          const app = yield* CurrentApp
          return yield* idempotentWrite(
            { tenantId: app.tenantId, network: app.network, operation: "settings.webhook", requestId: payload.request_id },
            { success: Webhook, rejection: nothingSaved },
            settings.checkWebhook(payload.url, payload.enabled).pipe(
              Effect.zipRight(settings.setWebhook(app, payload.url, payload.enabled)),
              Effect.map((w) => ({ url: w.url, enabled: w.enabled }))
            )
          )
        }).pipe(toEnvelope))
  }))
