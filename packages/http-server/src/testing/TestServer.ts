import { HttpServer } from "@effect/platform"
import { Sweeps, Tenants, type Wallets } from "@collector/core"
import { PgStorage } from "@collector/postgres"
import { TestDatabaseLive } from "@collector/postgres/testing"
import { AesGcmSecretBox, MasterKey, MasterKeyring, NodeEntropy } from "@collector/vault"
import { type ConfigError, Context, Effect, Layer, Logger } from "effect"
import { randomBytes } from "node:crypto"
import { DnsWebhookTargets } from "@collector/outbound"
import { LocalWalletKeys } from "@collector/tron"
import { ApiServerLive } from "../ApiServer.js"
import { testResolver } from "./TestResolver.js"
import { AccessLog } from "../gate/AccessLog.js"
import { Gate, type GateSettings } from "../gate/GateSettings.js"

/** Log lines the server wrote during a test, to check that no secret ever reaches them. */
export class CapturedLogs extends Context.Tag("CapturedLogs")<CapturedLogs, { readonly lines: Array<string> }>() {}

export class ServerUrl extends Context.Tag("ServerUrl")<ServerUrl, string>() {}

/**
 * A real API server on a random loopback port over a fresh real database, plus the operator's
 * TenantAdmin on the same database, for end-to-end tests. `networkResources` gives the sweep
 * estimate a node (the simulator); without one every estimate finds the node unavailable.
 */
export const TestServerLive = (
  settings: Partial<GateSettings> = {},
  options: {
    readonly networkResources?: Layer.Layer<Sweeps.NetworkResources, ConfigError.ConfigError>
    readonly tenantLimits?: Partial<Tenants.TenantLimitsShape>
    /** Where new wallets' keys are made; local (sealed in the database) by default. */
    readonly walletKeys?: Layer.Layer<Wallets.WalletKeys>
  } = {}
) => {
  const lines: Array<string> = []
  const capture = Logger.replace(Logger.defaultLogger, Logger.map(Logger.jsonLogger, (line) => void lines.push(line)))
  const Shared = Layer.mergeAll(
    TestDatabaseLive,
    MasterKeyring.layer({ current: MasterKey.unsafeMake(randomBytes(32)) }),
    Gate.layer(settings),
    Sweeps.SweepSettings.layer(),
    Tenants.TenantLimits.layer(options.tenantLimits),
    NodeEntropy.layer
  )
  const Url = Layer.effect(
    ServerUrl,
    Effect.map(HttpServer.HttpServer, (server) => `http://127.0.0.1:${(server.address as { port: number }).port}`)
  )
  // The reference server's adapters, except that webhook hosts resolve through the test resolver.
  const Adapters = Layer.mergeAll(
    PgStorage,
    options.walletKeys ?? LocalWalletKeys.layer,
    AccessLog.to((line) => void lines.push(line)),
    DnsWebhookTargets.layer({ lookup: testResolver }),
    options.networkResources ?? Layer.succeed(Sweeps.NetworkResources, Sweeps.unconfiguredNetworkResources)
  ).pipe(Layer.provideMerge(AesGcmSecretBox.layer), Layer.provideMerge(NodeEntropy.layer))
  return Layer.mergeAll(
    Url.pipe(Layer.provide(ApiServerLive({ port: 0, host: "127.0.0.1" }))),
    Tenants.TenantAdmin.layer,
    Layer.succeed(CapturedLogs, { lines })
  ).pipe(Layer.provide(Adapters), Layer.provideMerge(Shared), Layer.provide(capture))
}
