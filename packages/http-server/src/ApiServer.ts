import { HttpApiBuilder, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { ContractApi } from "@collector/api"
import { Wallets } from "@collector/core"
import { PgAccessTokenRepository, PgIdempotencyStore, PgTenantRepository, PgWalletRepository } from "@collector/postgres"
import { LocalWalletKeys } from "@collector/tron"
import { AesGcmSecretBox, NodeEntropy } from "@collector/vault"
import { Effect, Layer } from "effect"
import { createServer } from "node:http"
import { AccessLog } from "./gate/AccessLog"
import { Authenticator } from "./gate/Authenticator"
import { AuthenticatedLive, SignedLive } from "./gate/CallerMiddleware"
import { ContractErrorsLive } from "./gate/ContractErrors"
import { RequestGate } from "./gate/RequestGate"
import { AuthHandlers } from "./handlers/AuthHandlers"
import { SystemHandlers } from "./handlers/SystemHandlers"
import { WalletHandlers } from "./handlers/WalletHandlers"

const Repositories = Layer.mergeAll(PgTenantRepository, PgAccessTokenRepository, PgIdempotencyStore, PgWalletRepository)

const Domain = Wallets.Default.pipe(Layer.provide(LocalWalletKeys.layer))

const ApiLive = HttpApiBuilder.api(ContractApi).pipe(
  Layer.provide([SystemHandlers, AuthHandlers, WalletHandlers]),
  Layer.provide([AuthenticatedLive, SignedLive, ContractErrorsLive])
)

/**
 * The HTTP API on whatever HttpServer is provided. Needs the database (SqlClient), the master
 * keyring and the gate settings from the caller; everything else is assembled here.
 */
export const ApiLayer = HttpApiBuilder.serve((app) => Effect.flatMap(RequestGate, (gate) => gate.handle(app))).pipe(
  Layer.provide(ApiLive),
  Layer.provide(RequestGate.Default),
  Layer.provide(Authenticator.Default),
  Layer.provide(Domain),
  Layer.provide([Repositories, NodeEntropy.layer, AesGcmSecretBox.layer])
)

/** The HTTP API on a Node server at `port`; the HttpServer stays visible (tests read its port). */
export const ApiServerLive = (port: number, host = "0.0.0.0", accessLog: Layer.Layer<AccessLog> = AccessLog.stdout) =>
  ApiLayer.pipe(
    HttpServer.withLogAddress,
    Layer.provide(accessLog),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port, host }))
  )
