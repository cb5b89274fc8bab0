import { ConfigValue, SweepSettings } from "@collector/core"
import { ApiServerLive, Gate } from "@collector/http-server"
import { databaseLayerConfig } from "@collector/postgres"
import { MasterKeyring } from "@collector/vault"
import { Config, Effect, Layer } from "effect"
import { networkResourcesLayer, type NetworkResourcesOptions } from "./NetworkResourcesLive"

/**
 * The API server and its master key, configured from the environment; needs the database. The
 * sweep estimate reads each network's node and energy provider (`networks`, from the TRON_* and
 * provider settings unless told otherwise); sweeps take SWEEP_PREPARATION_HOURS.
 */
export const ApiLayer = (networks: NetworkResourcesOptions = {}) =>
  Layer.unwrapEffect(
    Effect.map(ConfigValue.port("PORT").pipe(Config.withDefault(8080)), (port) =>
      ApiServerLive({ port, networkResources: networkResourcesLayer(networks) }).pipe(
        Layer.provide([MasterKeyring.layerConfig(), Gate.layerConfig(), SweepSettings.layerConfig()])
      ))
  )

/** The API server alone, with its database. */
export const ApiServiceLive = ApiLayer().pipe(Layer.provide(databaseLayerConfig()))
