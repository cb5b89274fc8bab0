import { SweepSettings } from "@collector/core"
import { AccessLog, ApiServerLive, Gate } from "@collector/http-server"
import { DnsWebhookTargets } from "@collector/outbound"
import { DatabaseLive, PgStorage } from "@collector/postgres"
import { LocalWalletKeys } from "@collector/tron"
import { AesGcmSecretBox, MasterKeyring, NodeEntropy } from "@collector/vault"
import { Config, Effect, Layer } from "effect"
import { resolve } from "node:path"
import { networkResourcesLayer, type NetworkResourcesOptions } from "./NetworkResourcesLive"

export const DataDirConfig = Config.string("DATA_DIR").pipe(Config.withDefault(".data"), Config.map((dir) => resolve(dir)))

/**
 * What the API serves over: PostgreSQL storage on the database provided, secrets sealed under
 * the master keyring, wallet keys made in this process, webhook URLs resolved to public addresses
 * only, access lines on stdout, and each network's node and energy provider.
 */
const apiAdapters = (networks: NetworkResourcesOptions) =>
  Layer.mergeAll(
    PgStorage,
    LocalWalletKeys.layer,
    NodeEntropy.layer,
    AccessLog.stdout,
    DnsWebhookTargets.layerFromConfig,
    networkResourcesLayer(networks)
  ).pipe(Layer.provideMerge(AesGcmSecretBox.layer))

/**
 * The API server and its master key, configured from the environment; needs the database. The
 * sweep estimate reads each network's node and energy provider (`networks`, from the TRON_* and
 * provider settings unless told otherwise); sweeps take SWEEP_PREPARATION_HOURS.
 */
export const apiProcessLayer = (dataDir: string, networks: NetworkResourcesOptions = {}) =>
  Layer.unwrapEffect(
    Effect.map(Config.port("PORT").pipe(Config.withDefault(8080)), (port) =>
      ApiServerLive({ port }).pipe(
        Layer.provide(apiAdapters(networks)),
        Layer.provide([MasterKeyring.layerFromConfig(dataDir), Gate.layerFromConfig, SweepSettings.layerFromEnv])
      ))
  )

/** The API process: the API server alone, with its database. */
export const ApiProcessLive = Layer.unwrapEffect(
  Effect.map(DataDirConfig, (dataDir) => apiProcessLayer(dataDir).pipe(Layer.provide(DatabaseLive(dataDir))))
)
