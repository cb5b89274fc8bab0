import { ConfigValue, SweepSettings } from "@collector/core"
import { AccessLog, ApiServerLive, Gate } from "@collector/http-server"
import { DnsWebhookTargets } from "@collector/outbound"
import { databaseLayerConfig, PgStorage } from "@collector/postgres"
import { LocalWalletKeys } from "@collector/tron"
import { AesGcmSecretBox, MasterKeyring, NodeEntropy } from "@collector/vault"
import { Config, Effect, Layer } from "effect"
import { networkResourcesLayer, type NetworkResourcesOptions } from "./NetworkResourcesLive.js"

export interface ApiSettings {
  readonly port: number
}

/** `PORT` (default 8080). */
export const config: Config.Config<ApiSettings> = ConfigValue.port("PORT").pipe(Config.withDefault(8080), Config.map((port) => ({ port })))

/**
 * What the API serves over: PostgreSQL storage on the database provided, secrets sealed under
 * the master keyring, wallet keys made in this process, webhook URLs resolved to public addresses
 * only (`WEBHOOK_*`), access lines on stdout, each network's node and energy provider, the gate's
 * and the sweeps' settings (`API_*`, `SWEEP_*`).
 */
export const adapters = (networks: NetworkResourcesOptions = {}) =>
  Layer.mergeAll(
    PgStorage,
    LocalWalletKeys.layer,
    AccessLog.stdout,
    DnsWebhookTargets.layerConfig(),
    networkResourcesLayer(networks),
    Gate.layerConfig(),
    SweepSettings.layerConfig()
  ).pipe(Layer.provideMerge(AesGcmSecretBox.layer), Layer.provideMerge(NodeEntropy.layer))

/**
 * The API server on `settings.port` over the reference adapters; needs the database (a SqlClient)
 * and the MasterKeyring, which the worker shares when both run in one process. The sweep
 * estimate reads each network's node and energy provider (`networks`, from the TRON_* and
 * provider settings unless told otherwise).
 */
export const layer = (settings: ApiSettings, networks: NetworkResourcesOptions = {}) =>
  ApiServerLive({ port: settings.port }).pipe(Layer.provide(adapters(networks)))

/** The API process from its variables, on the database (`DATABASE_URL` or the embedded one under `DATA_DIR`) and the master keys. */
export const layerConfig = (networks: NetworkResourcesOptions = {}) =>
  Layer.unwrapEffect(Effect.map(config, (settings) => layer(settings, networks))).pipe(
    Layer.provide([MasterKeyring.layerConfig(), databaseLayerConfig()])
  )
