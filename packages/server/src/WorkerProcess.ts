import { WebhookEnvelopeSealer } from "@collector/api"
import { Chain, ConfigValue, Energy, Engine, Metrics, Retention, Scanning, Setting } from "@collector/core"
import { describeEnergyProvider, energyProviderConfig, energyProviderLayer, type EnergyProviderSettings } from "@collector/energy"
import { WebhookDelivery, webhookDeliveryConfig, type WebhookDeliverySettings } from "@collector/outbound"
import { databaseConfig, describeDatabase, PgStorage } from "@collector/postgres"
import { failoverNodeChain, isInsecureNodeUrl, type NodeConfig, nodeConfigs, nodeFailoverConfig, nodeHttpClient } from "@collector/tron-node"
import { AesGcmSecretBox, NodeEntropy } from "@collector/vault"
import { FetchHttpClient, type HttpClient } from "@effect/platform"
import { type ConfigError, Context, Effect, Layer } from "effect"
import { hostname } from "node:os"
import * as KeyStore from "./KeyStore.js"
import * as OperatorServer from "./OperatorServer.js"
import { defaultOperatorSettings, operatorConfig, type OperatorSettings } from "./OperatorSettings.js"
import { embeddedMainnetGuard } from "./EmbeddedMainnet.js"
import { processStorage } from "./ProcessStorage.js"

/** A network the worker watches: its node and its energy provider. */
export interface WorkerNetwork {
  readonly node: NodeConfig
  /** Every node of the network in the operator's order, the first being `node`; absent: `node` alone. */
  readonly nodes?: ReadonlyArray<NodeConfig>
  /** How the network fails over between its nodes; the defaults when absent. */
  readonly failover?: Chain.FailoverChainOptions
  readonly energyProvider: EnergyProviderSettings
  /** The network's deposit minimum in base units (`DEPOSIT_MINIMUM_<NETWORK>`); 0 or absent: none. */
  readonly depositMinimum?: bigint
}

export interface WorkerSettings {
  readonly networks: ReadonlyArray<WorkerNetwork>
  readonly engine: Engine.EngineSettings
  readonly webhookDelivery: WebhookDeliverySettings
  /** Where the operator's endpoints are served; absent: not served (an embedder's choice). */
  readonly operator?: OperatorSettings
  /** What `/readyz` holds the engines to; the defaults when absent. */
  readonly readiness?: Engine.ReadinessSettings
  /** How expired tokens and old idempotency records are pruned; the defaults when absent. */
  readonly pruning?: Retention.RecordPruningSettings
}

/** `WORKER_NETWORKS`: the networks a worker watches. */
export const workerNetworks = Setting.declare({
  name: "WORKER_NETWORKS",
  default: ["nile" as const],
  description: "Networks to watch, comma-separated (`main`, `nile`)."
}, ConfigValue.networks)

/**
 * `WORKER_NETWORKS` (default `nile`) and, for each of those networks, its `TRON_*` and
 * `ENERGY_PROVIDER_*` variables; the engine's variables (`engineConfig`); `WEBHOOK_*`;
 * `OPERATOR_*` and `READY_*`; `PRUNE_*` and `IDEMPOTENCY_RETENTION_HOURS`.
 */
export const config: Effect.Effect<WorkerSettings, ConfigError.ConfigError> = Effect.gen(function*() {
  const networks = yield* workerNetworks
  const engine = yield* Engine.engineConfig
  const nodes = yield* Effect.forEach(networks, (network) => nodeConfigs(network))
  const failover = yield* nodeFailoverConfig
  const providers = yield* Effect.forEach(networks, energyProviderConfig)
  const minimums = yield* Effect.forEach(networks, Scanning.depositMinimumConfig)
  const webhookDelivery = yield* webhookDeliveryConfig
  const operator = yield* operatorConfig
  const readiness = yield* Engine.readinessConfig
  const pruning = yield* Retention.recordPruningConfig
  return {
    networks: nodes.map((list, i) => ({ node: list[0]!, nodes: list, failover, energyProvider: providers[i]!, depositMinimum: minimums[i]! })),
    engine,
    webhookDelivery,
    operator,
    readiness,
    pruning
  }
})

/**
 * The nodes of `network`, in order. An embedder who replaces `node` in a read configuration
 * (`{ ...network, node }`, as the examples' stand-ins do) means that node: the list read with the
 * old one no longer describes the network, so it counts only while its first entry is `node`.
 */
export const nodesOf = (network: WorkerNetwork): ReadonlyArray<NodeConfig> =>
  network.nodes !== undefined && network.nodes[0] === network.node ? network.nodes : [network.node]

/**
 * The node(s) and the energy provider of one network; several nodes fail over by the core's rule
 * (`failoverChain`), and `ChainNodes` says how many serve. The node is spoken to with node:http over
 * kept connections (`nodeHttpClient`), which costs about a quarter less CPU per call than fetch
 * here (bench:sweeps); the provider through fetch.
 */
export const networkAdapters = (network: WorkerNetwork, http: Layer.Layer<HttpClient.HttpClient> = nodeHttpClient()) =>
  Layer.merge(
    Layer.effectContext(
      Effect.map(failoverNodeChain(nodesOf(network), network.failover), (nodes) => Context.make(Chain.Chain, nodes.chain).pipe(Context.add(Chain.ChainNodes, nodes)))
    ).pipe(Layer.provide(http)),
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
    // The signer of the configured store (KEY_STORE; local keys still sign locally), and the store for readiness.
    KeyStore.signer.pipe(Layer.provideMerge(KeyStore.layer), Layer.provide(AesGcmSecretBox.layer)),
    AesGcmSecretBox.layer,
    WebhookEnvelopeSealer.layer,
    WebhookDelivery.layer(webhookDelivery)
  ).pipe(Layer.provideMerge(NodeEntropy.layer))

/**
 * The engines, running: one per network, each on its own fiber for the life of the layer, with
 * its own node and energy provider. Their loops' reports are recorded in `Heartbeats` on the way
 * to the board in the store. What it provides is the process's `Readiness`, over the same nodes.
 */
const engines = (settings: WorkerSettings) =>
  Layer.scoped(Engine.Readiness, Effect.gen(function*() {
    // Every counter with closed labels is on /metrics at 0 from the start, for each network watched.
    yield* Metrics.primeCounters({ network: settings.networks.map((network) => network.node.network) })
    // Names this process in leases and claims (and in the logs of whoever waits on them).
    const engineSettings = { ...settings.engine, processName: `${hostname()}/${process.pid}` }
    const built = yield* Effect.forEach(settings.networks, (network) =>
      Effect.gen(function*() {
        const adapters = yield* Layer.build(networkAdapters(network))
        const engine = yield* Layer.build(
          Engine.Engine.layer(network.node.network, {
            ...engineSettings,
            scanner: { ...engineSettings.scanner, depositMinimum: network.depositMinimum ?? 0n }
          }).pipe(Layer.provide(Layer.succeedContext(adapters)), Layer.provide(Engine.Heartbeats.recording))
        )
        const provider = Context.get(adapters, Energy.EnergyProvider)
        return {
          network,
          engine: Context.get(engine, Engine.Engine),
          chain: Context.get(adapters, Chain.Chain),
          nodes: Context.get(adapters, Chain.ChainNodes).nodesHealthy,
          providers: provider.health
        }
      }))
    // Once per process, not per network: tokens and idempotency records belong to no network.
    const pruning = yield* Layer.build(Retention.RecordPruning.layer(settings.pruning ?? Retention.defaultRecordPruningSettings))
    yield* Effect.forkScoped(Context.get(pruning, Retention.RecordPruning).run)
    for (const { engine, network } of built) {
      if (nodesOf(network).some((node) => isInsecureNodeUrl(node.fullNodeUrl) || isInsecureNodeUrl(node.solidityUrl))) {
        yield* Effect.logWarning(
          `TRON_ALLOW_INSECURE_NODE is on: the ${network.node.network} node is reached over plain HTTP to another machine; ` +
            "anyone on that path can forge the blocks deposits are booked from"
        )
      }
      yield* Effect.forkScoped(engine.run)
      yield* Effect.log("watching network").pipe(
        Effect.annotateLogs({
          network: network.node.network,
          node: nodesOf(network).map((node) => node.fullNodeUrl).join(","),
          usdt_contract: network.node.usdtContract,
          energy_provider: describeEnergyProvider(network.energyProvider),
          holder: engine.holder
        })
      )
    }
    const readiness = Engine.Readiness.engines(
      built.map(({ chain, network, nodes, providers }) => ({ network: network.node.network, chain, nodes, ...(providers === undefined ? {} : { providers }) })),
      settings.readiness
    )
    return Context.get(yield* Layer.build(readiness), Engine.Readiness)
  }))

/**
 * The worker: one engine per network, on the database and the master keyring provided (the same
 * key as the API's), and the operator's endpoints when `settings.operator` says where. Every
 * engine is built before any runs, so a setting or an adapter that cannot be built stops the start.
 */
export const layer = (settings: WorkerSettings) =>
  OperatorServer.layer(settings.operator ?? { ...defaultOperatorSettings, port: 0 }).pipe(
    Layer.provide(KeyStore.withReadiness((settings.readiness ?? Engine.defaultReadinessSettings).checkTimeout)(engines(settings))),
    Layer.provide(Engine.Heartbeats.layer),
    Layer.provide(sharedAdapters(settings.webhookDelivery))
  )

/**
 * The worker process from its variables (`config`), on the database (`DATABASE_URL` or the
 * embedded one under `DATA_DIR`) and the master keys (`MASTER_KEY`). `checkpoint` is the crash
 * tests' fault injection.
 */
export const layerConfig = (options: { readonly checkpoint?: Engine.Checkpoint } = {}) =>
  Layer.unwrapEffect(Effect.gen(function*() {
    const settings = yield* config
    const database = yield* databaseConfig
    yield* embeddedMainnetGuard(settings.networks.map((network) => network.node.network), database)
    const engine = options.checkpoint === undefined ? settings.engine : { ...settings.engine, checkpoint: options.checkpoint }
    return layer({ ...settings, engine }).pipe(Layer.provide(processStorage(database)))
  }))

/** The worker's start line: the networks it watches (with their nodes), its storage and the operator's endpoints. */
/** The worker's port variables and their defaults, for a taken port's message (`launch`'s `ports`). */
export const ports = { OPERATOR_PORT: defaultOperatorSettings.port } as const

export const describe = Effect.map(Effect.all({ settings: config, database: databaseConfig, keyStore: KeyStore.keyStoreConfig }), ({ database, keyStore, settings }) => ({
  networks: settings.networks.map((network) => network.node.network).join(","),
  nodes: settings.networks.map((network) => `${network.node.network}=${nodesOf(network).map((node) => node.fullNodeUrl).join(",")}`).join(" "),
  storage: describeDatabase(database),
  key_store: keyStore,
  ...OperatorServer.describe(settings.operator ?? defaultOperatorSettings)
}))
