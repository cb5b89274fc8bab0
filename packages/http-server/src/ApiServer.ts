import { HttpApiBuilder, HttpMiddleware, type HttpRouter, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { ContractApi } from "@collector/api"
import { type Delegation, type Deposits, type Engine, type Idempotency, type Kernel, Notifications, type Secrets, Settings, type Storage, Sweeps, type Tenants, Wallets, type Webhook } from "@collector/core"
import { Effect, Layer } from "effect"
import { createServer } from "node:http"
import { AccessLog } from "./gate/AccessLog.js"
import { Authenticator } from "./gate/Authenticator.js"
import { AuthenticatedLive, SignedLive } from "./gate/CallerMiddleware.js"
import { ContractErrorsLive } from "./gate/ContractErrors.js"
import type { Gate } from "./gate/GateSettings.js"
import { RequestGate } from "./gate/RequestGate.js"
import { AuthHandlers } from "./handlers/AuthHandlers.js"
import { DashboardHandlers } from "./handlers/DashboardHandlers.js"
import { DepositHandlers } from "./handlers/DepositHandlers.js"
import { SettingsHandlers } from "./handlers/SettingsHandlers.js"
import { SweepHandlers } from "./handlers/SweepHandlers.js"
import { SystemHandlers } from "./handlers/SystemHandlers.js"
import { WalletHandlers } from "./handlers/WalletHandlers.js"
import { WebhookHandlers } from "./handlers/WebhookHandlers.js"

/**
 * What the API needs from whoever serves it: the storage ports it reads and writes (any store:
 * `PgStorage` and `MemoryStorage` provide them all), secrets at rest, randomness and wallet keys,
 * the webhook URL check, each network's node and energy provider for the sweep estimate, the
 * gate's limits and where access lines go.
 */
export type ApiPorts =
  | Tenants.TenantRepository
  | Tenants.AccessTokenRepository
  | Idempotency.IdempotencyStore
  | Wallets.WalletRepository
  | Settings.SettingsRepository
  | Deposits.DepositRepository
  | Engine.ComponentStatus
  | Notifications.NotificationRepository
  | Sweeps.SweepRepository
  | Delegation.ResourceAccounts
  | Storage.StorageProbe
  | Secrets.SecretBox
  | Kernel.Entropy
  | Wallets.WalletKeys
  | Webhook.WebhookTargets
  | Sweeps.NetworkResources
  | Sweeps.SweepSettings
  | Gate
  | AccessLog

const Domain = Layer.mergeAll(Wallets.Wallets.layer, Settings.SettingsService.layer, Notifications.Notifications.layer, Sweeps.Sweeps.layer)

/** Handler groups that replace the real ones: how the simulator plants a handler's slip (never set in production). */
export interface HandlerOverrides {
  readonly wallets?: typeof WalletHandlers
}

const apiLive = (overrides: HandlerOverrides) =>
  HttpApiBuilder.api(ContractApi).pipe(
    Layer.provide([
      SystemHandlers,
      AuthHandlers,
      DashboardHandlers,
      overrides.wallets ?? WalletHandlers,
      SettingsHandlers,
      SweepHandlers,
      DepositHandlers,
      WebhookHandlers
    ]),
    Layer.provide([AuthenticatedLive, SignedLive, ContractErrorsLive])
  )

/** `ApiLayer` with some handler groups replaced (`overrides`). */
export const apiLayerWith = (
  overrides: HandlerOverrides
): Layer.Layer<never, never, ApiPorts | HttpServer.HttpServer | HttpRouter.HttpRouter.DefaultServices> =>
  HttpApiBuilder.serve((app) => Effect.flatMap(RequestGate, (gate) => gate.handle(app))).pipe(
    // The gate makes each request's span itself (gate/RequestSpan.ts).
    HttpMiddleware.withTracerDisabledWhen(() => true),
    Layer.provide(apiLive(overrides)),
    Layer.provide(RequestGate.layer),
    Layer.provide(Authenticator.layer),
    Layer.provide(Domain)
  )

/**
 * The HTTP API on whatever HttpServer (and its platform services) is provided, over the ports
 * the caller provides (storage, secrets, the sweep settings, the networks' resources): no
 * adapter is chosen here.
 */
export const ApiLayer = apiLayerWith({})

export interface ApiServerOptions {
  readonly port: number
  readonly host?: string
}

/** The HTTP API on a Node server; the HttpServer stays visible (tests read its port). */
export const ApiServerLive = (options: ApiServerOptions) =>
  ApiLayer.pipe(
    HttpServer.withLogAddress,
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: options.port, host: options.host ?? "0.0.0.0" }))
  )
