import { ConfigValue, Engine, Kernel, Setting, Sweeps, Tenants } from "@collector/core"
import { energyProviderConfig } from "@collector/energy"
import { AccessLog, ApiServerLive, Gate, gateSettingsConfig } from "@collector/http-server"
import { logFormatConfig } from "@collector/launch"
import { allowPrivateTargetsConfig, DnsWebhookTargets } from "@collector/outbound"
import { nodeConfigs } from "@collector/tron-node"
import { databaseConfig, describeDatabase, PgStorage } from "@collector/postgres"
import { AesGcmSecretBox, NodeEntropy } from "@collector/vault"
import { Config, Effect, Layer } from "effect"
import { networkResourcesLayer, type NetworkResourcesOptions } from "./NetworkResourcesLive.js"
import * as KeyStore from "./KeyStore.js"
import * as OperatorServer from "./OperatorServer.js"
import { defaultOperatorSettings, operatorConfig, type OperatorSettings } from "./OperatorSettings.js"
import { processStorage } from "./ProcessStorage.js"

export interface ApiSettings {
  readonly port: number
  /** Where the operator's endpoints are served; absent: not served (the service serves the worker's). */
  readonly operator?: OperatorSettings
  /** What `/readyz` holds the API to; the defaults when absent. */
  readonly readiness?: Engine.ReadinessSettings
}

/** The API's port variables and their defaults, for a taken port's message (`launch`'s `ports`). */
export const ports = { PORT: 8080, OPERATOR_PORT: defaultOperatorSettings.port } as const

/** `PORT`: where the tenant API listens. */
export const portSetting = Setting.declare({ name: "PORT", default: ports.PORT, description: "HTTP port of the API (1 to 65535)." }, ConfigValue.port)

/** `PORT` (default 8080), `OPERATOR_*` and `READY_*`. */
export const config: Config.Config<ApiSettings> = Config.all({
  port: portSetting,
  operator: operatorConfig,
  readiness: Engine.readinessConfig
})

/**
 * Reads every setting the API's layers read while they are built (`API_*`, `SWEEP_*`, `TENANT_*`,
 * `WEBHOOK_ALLOW_PRIVATE_TARGETS`, each network's `TRON_*` and `ENERGY_PROVIDER_*`, `OPERATOR_*`,
 * `READY_*`), so that a bad one stops the start before the database is started, connected to or
 * migrated.
 */
export const checkSettings = Effect.all([
  config,
  KeyStore.keyStoreConfig,
  gateSettingsConfig,
  Sweeps.sweepSettingsConfig,
  Tenants.tenantLimitsConfig,
  allowPrivateTargetsConfig,
  Effect.forEach(Kernel.allNetworks, (network) => Effect.all([nodeConfigs(network), energyProviderConfig(network)]))
], { discard: true })

// Request lines in the process's log format: JSON for a collector, one readable line at a terminal.
const accessLog = Layer.unwrapEffect(Effect.map(
  Effect.orElseSucceed(logFormatConfig(process.stdout.isTTY === true), () => "json" as const),
  (format) => (format === "pretty" ? AccessLog.prettyStdout : AccessLog.stdout)
))

/**
 * What the API serves over: PostgreSQL storage on the database provided, secrets sealed under
 * the master keyring, wallet keys made in this process, webhook URLs resolved to public addresses
 * only (`WEBHOOK_*`), access lines on stdout, each network's node and energy provider, the gate's
 * and the sweeps' settings and the tenant limits (`API_*`, `SWEEP_*`, `TENANT_*`).
 */
export const adapters = (networks: NetworkResourcesOptions = {}) =>
  Layer.mergeAll(
    PgStorage,
    // The wallet keys of the configured store (KEY_STORE), and the store itself for readiness.
    KeyStore.walletKeys.pipe(Layer.provideMerge(KeyStore.layer)),
    accessLog,
    DnsWebhookTargets.layerConfig(),
    networkResourcesLayer(networks),
    Gate.layerConfig(),
    Sweeps.SweepSettings.layerConfig(),
    Tenants.TenantLimits.layerConfig()
  ).pipe(Layer.provideMerge(AesGcmSecretBox.layer), Layer.provideMerge(NodeEntropy.layer))

/**
 * The API server on `settings.port` over the reference adapters; needs the database (a SqlClient)
 * and the MasterKeyring, which the worker shares when both run in one process. The sweep
 * estimate reads each network's node and energy provider (`networks`, from the TRON_* and
 * provider settings unless told otherwise). The operator's endpoints are served when
 * `settings.operator` says where (one process serves them once: the service serves the worker's).
 */
export const layer = (settings: ApiSettings, networks: NetworkResourcesOptions = {}) =>
  Layer.merge(
    ApiServerLive({ port: settings.port }),
    // The API has no engine: it is ready when the database answers (see Readiness.storage).
    OperatorServer.layer(settings.operator ?? { ...defaultOperatorSettings, port: 0 }).pipe(
      Layer.provide(KeyStore.withReadiness((settings.readiness ?? Engine.defaultReadinessSettings).checkTimeout)(Engine.Readiness.storage(settings.readiness)))
    )
  ).pipe(Layer.provide(adapters(networks)))

/**
 * The API process from its variables, on the database (`DATABASE_URL` or the embedded one under
 * `DATA_DIR`) and the master keys. Every setting is read before the database is touched.
 */
export const layerConfig = (networks: NetworkResourcesOptions = {}) =>
  Layer.unwrapEffect(Effect.gen(function*() {
    yield* checkSettings
    const settings = yield* config
    const database = yield* databaseConfig
    return layer(settings, networks).pipe(Layer.provide(processStorage(database)))
  }))

/** The API process's start line: its port, its storage and the operator's endpoints. */
export const describe = Effect.map(Config.all({ settings: config, database: databaseConfig, keyStore: KeyStore.keyStoreConfig }), ({ database, keyStore, settings }) => ({
  api_port: settings.port,
  storage: describeDatabase(database),
  key_store: keyStore,
  ...OperatorServer.describe(settings.operator ?? defaultOperatorSettings)
}))
