import { HttpApiBuilder, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { ContractApi } from "@collector/api"
import {
  NetworkResources,
  Notifications,
  SettingsService,
  Sweeps,
  unconfiguredNetworkResources,
  Wallets,
  type WebhookTargets
} from "@collector/core"
import { DnsWebhookTargets } from "@collector/outbound"
import {
  PgAccessTokenRepository,
  PgComponentStatus,
  PgDepositRepository,
  PgIdempotencyStore,
  PgNotificationRepository,
  PgSettingsRepository,
  PgSweepRepository,
  PgTenantRepository,
  PgWalletRepository
} from "@collector/postgres"
import { LocalWalletKeys } from "@collector/tron"
import { AesGcmSecretBox, NodeEntropy } from "@collector/vault"
import { type ConfigError, Effect, Layer } from "effect"
import { createServer } from "node:http"
import { AccessLog } from "./gate/AccessLog"
import { Authenticator } from "./gate/Authenticator"
import { AuthenticatedLive, SignedLive } from "./gate/CallerMiddleware"
import { ContractErrorsLive } from "./gate/ContractErrors"
import { RequestGate } from "./gate/RequestGate"
import { AuthHandlers } from "./handlers/AuthHandlers"
import { DashboardHandlers } from "./handlers/DashboardHandlers"
import { DepositHandlers } from "./handlers/DepositHandlers"
import { SettingsHandlers } from "./handlers/SettingsHandlers"
import { SweepHandlers } from "./handlers/SweepHandlers"
import { SystemHandlers } from "./handlers/SystemHandlers"
import { WalletHandlers } from "./handlers/WalletHandlers"
import { WebhookHandlers } from "./handlers/WebhookHandlers"

const Repositories = Layer.mergeAll(
  PgTenantRepository.layer,
  PgAccessTokenRepository.layer,
  PgIdempotencyStore.layer,
  PgWalletRepository.layer,
  PgSettingsRepository.layer,
  PgDepositRepository.layer,
  PgComponentStatus.layer,
  PgNotificationRepository.layer,
  PgSweepRepository.layer
)

const Domain = Layer.mergeAll(
  Wallets.layer.pipe(Layer.provide(LocalWalletKeys.layer)),
  SettingsService.layer,
  Notifications.layer,
  Sweeps.layer
)

const ApiLive = HttpApiBuilder.api(ContractApi).pipe(
  Layer.provide([
    SystemHandlers,
    AuthHandlers,
    DashboardHandlers,
    WalletHandlers,
    SettingsHandlers,
    SweepHandlers,
    DepositHandlers,
    WebhookHandlers
  ]),
  Layer.provide([AuthenticatedLive, SignedLive, ContractErrorsLive])
)

/**
 * The HTTP API on whatever HttpServer is provided. Needs the database (SqlClient), the master
 * keyring, the gate settings, the sweep settings and the networks' resources (for the sweep
 * estimate) from the caller; everything else is assembled here.
 */
export const ApiLayer = HttpApiBuilder.serve((app) => Effect.flatMap(RequestGate, (gate) => gate.handle(app))).pipe(
  Layer.provide(ApiLive),
  Layer.provide(RequestGate.layer),
  Layer.provide(Authenticator.layer),
  Layer.provide(Domain),
  Layer.provide([Repositories, NodeEntropy.layer, AesGcmSecretBox.layer])
)

export interface ApiServerOptions {
  readonly port: number
  readonly host?: string
  readonly accessLog?: Layer.Layer<AccessLog>
  /** How webhook URLs are checked at save; DNS with public addresses only by default. */
  readonly webhookTargets?: Layer.Layer<WebhookTargets, ConfigError.ConfigError>
  /**
   * Each network's node and energy provider, for the sweep estimate. Without it every estimate
   * of a wallet fails as the node being unavailable (the apps always give one).
   */
  readonly networkResources?: Layer.Layer<NetworkResources, ConfigError.ConfigError>
}

/** The HTTP API on a Node server; the HttpServer stays visible (tests read its port). */
export const ApiServerLive = (options: ApiServerOptions) =>
  ApiLayer.pipe(
    HttpServer.withLogAddress,
    Layer.provide(options.accessLog ?? AccessLog.stdout),
    Layer.provide(options.webhookTargets ?? DnsWebhookTargets.layerConfig()),
    Layer.provide(options.networkResources ?? Layer.succeed(NetworkResources, unconfiguredNetworkResources)),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: options.port, host: options.host ?? "0.0.0.0" }))
  )
