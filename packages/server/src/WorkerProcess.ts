import { WebhookEnvelopeSealer } from "@collector/api"
import { type Checkpoint, ConfigValue, Engine, engineConfig, type EngineSettings } from "@collector/core"
import { describeEnergyProvider, energyProviderConfig, energyProviderLayer, type EnergyProviderSettings } from "@collector/energy"
import { WebhookDelivery, webhookDeliveryConfig, type WebhookDeliverySettings } from "@collector/outbound"
import { databaseConfig, describeDatabase, PgStorage } from "@collector/postgres"
import { LocalSigner } from "@collector/tron"
import { type NodeConfig, nodeConfig, nodeHttpClient, TronNodeChain } from "@collector/tron-node"
import { AesGcmSecretBox, NodeEntropy } from "@collector/vault"
import { FetchHttpClient, type HttpClient } from "@effect/platform"
import { Config, type ConfigError, Context, Effect, Layer } from "effect"
import { hostname } from "node:os"
import { processStorage } from "./ProcessStorage.js"

/** A network the worker watches: its node and its energy provider. */
export interface WorkerNetwork {
  readonly node: NodeConfig
  readonly energyProvider: EnergyProviderSettings
}

export interface WorkerSettings {
  readonly networks: ReadonlyArray<WorkerNetwork>
  readonly engine: EngineSettings
  readonly webhookDelivery: WebhookDeliverySettings
}

/**
 * `WORKER_NETWORKS` (default `nile`) and, for each of those networks, its `TRON_*` and
 * `ENERGY_PROVIDER_*` variables; the engine's variables (`engineConfig`); `WEBHOOK_*`.
 */
export const config: Effect.Effect<WorkerSettings, ConfigError.ConfigError> = Effect.gen(function*() {
  const networks = yield* ConfigValue.networks("WORKER_NETWORKS").pipe(Config.withDefault(["nile" as const]))
  const engine = yield* engineConfig
  const nodes = yield* Effect.forEach(networks, (network) => nodeConfig(network))
  const providers = yield* Effect.forEach(networks, energyProviderConfig)
  const webhookDelivery = yield* webhookDeliveryConfig
  return { networks: nodes.map((node, i) => ({ node, energyProvider: providers[i]! })), engine, webhookDelivery }
})

/**
 * The node and the energy provider of one network. The node is spoken to with node:http over
 * kept connections (`nodeHttpClient`), which costs about a quarter less CPU per call than fetch
 * here (bench:sweeps); the provider through fetch.
 */
export const networkAdapters = (network: WorkerNetwork, http: Layer.Layer<HttpClient.HttpClient> = nodeHttpClient()) =>
  Layer.merge(
    TronNodeChain.layer(network.node).pipe(Layer.provide(http)),
    energyProviderLayer(network.energyProvider).pipe(Layer.provide(FetchHttpClient.layer))
  )

/**
 * What every network's engine shares: the storage, the signer and the secret box (wallet keys and
 * webhook keys are opened under the master key), the webhook envelope and delivery. Needs the
 * database (a SqlClient) and the MasterKeyring.
 */
export const sharedAdapters = (webhookDelivery: WebhookDeliverySettings) =>
  Layer.mergeAll(
    PgStorage,
    LocalSigner.layer.pipe(Layer.provide(AesGcmSecretBox.layer)),
    AesGcmSecretBox.layer,
    WebhookEnvelopeSealer.layer,
    WebhookDelivery.layer(webhookDelivery)
  ).pipe(Layer.provideMerge(NodeEntropy.layer))

/**
 * The worker: one engine per network, each running on its own fiber for the life of the layer,
 * on the database and the master keyring provided (the same key as the API's). Every engine is
 * built before any runs, so a setting or an adapter that cannot be built stops the start.
 */
export const layer = (settings: WorkerSettings) =>
  Layer.scopedDiscard(Effect.gen(function*() {
    // Names this process in leases and claims (and in the logs of whoever waits on them).
    const engineSettings = { ...settings.engine, processName: `${hostname()}/${process.pid}` }
    const engines = yield* Effect.forEach(settings.networks, (network) =>
      Effect.map(
        Layer.build(Engine.layer(network.node.network, engineSettings).pipe(Layer.provide(networkAdapters(network)))),
        (context) => ({ network, engine: Context.get(context, Engine) })
      ))
    for (const { engine, network } of engines) {
      yield* Effect.forkScoped(engine.run)
      yield* Effect.log("watching network").pipe(
        Effect.annotateLogs({
          network: network.node.network,
          node: network.node.fullNodeUrl,
          usdt_contract: network.node.usdtContract,
          energy_provider: describeEnergyProvider(network.energyProvider),
          holder: engine.holder
        })
      )
    }
  })).pipe(Layer.provide(sharedAdapters(settings.webhookDelivery)))

/**
 * The worker process from its variables (`config`), on the database (`DATABASE_URL` or the
 * embedded one under `DATA_DIR`) and the master keys (`MASTER_KEY`). `checkpoint` is the crash
 * tests' fault injection.
 */
export const layerConfig = (options: { readonly checkpoint?: Checkpoint } = {}) =>
  Layer.unwrapEffect(Effect.gen(function*() {
    const settings = yield* config
    const database = yield* databaseConfig
    const engine = options.checkpoint === undefined ? settings.engine : { ...settings.engine, checkpoint: options.checkpoint }
    return layer({ ...settings, engine }).pipe(Layer.provide(processStorage(database)))
  }))

/** The worker's start line: the networks it watches (with their nodes) and its storage. */
export const describe = Effect.map(Effect.all({ settings: config, database: databaseConfig }), ({ database, settings }) => ({
  networks: settings.networks.map((network) => network.node.network).join(","),
  nodes: settings.networks.map((network) => `${network.node.network}=${network.node.fullNodeUrl}`).join(" "),
  storage: describeDatabase(database)
}))
