import { SweepSettings } from "@collector/core"
import { ApiServerLive, Gate } from "@collector/http-server"
import { DatabaseLive } from "@collector/postgres"
import { MasterKeyring } from "@collector/vault"
import { Config, Effect, Layer } from "effect"
import { resolve } from "node:path"
import { networkResourcesLayer, type NetworkResourcesOptions } from "./NetworkResourcesLive"

export const DataDirConfig = Config.string("DATA_DIR").pipe(Config.withDefault(".data"), Config.map((dir) => resolve(dir)))

/**
 * The API server and its master key, configured from the environment; needs the database. The
 * sweep estimate reads each network's node and energy provider (`networks`, from the TRON_* and
 * provider settings unless told otherwise); sweeps take SWEEP_PREPARATION_HOURS.
 */
export const ApiLayer = (dataDir: string, networks: NetworkResourcesOptions = {}) =>
  Layer.unwrapEffect(
    Effect.map(Config.port("PORT").pipe(Config.withDefault(8080)), (port) =>
      ApiServerLive({ port, networkResources: networkResourcesLayer(networks) }).pipe(
        Layer.provide([MasterKeyring.layerFromConfig(dataDir), Gate.layerFromConfig, SweepSettings.layerFromEnv])
      ))
  )

/** The API server alone, with its database. */
export const ApiServiceLive = Layer.unwrapEffect(
  Effect.map(DataDirConfig, (dataDir) => ApiLayer(dataDir).pipe(Layer.provide(DatabaseLive(dataDir))))
)
