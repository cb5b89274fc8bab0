import { ApiServerLive, Gate } from "@collector/http-server"
import { DatabaseLive } from "@collector/postgres"
import { MasterKeyring } from "@collector/vault"
import { Config, Effect, Layer } from "effect"
import { resolve } from "node:path"

export const DataDirConfig = Config.string("DATA_DIR").pipe(Config.withDefault(".data"), Config.map((dir) => resolve(dir)))

/** The API server and its master key, configured from the environment; needs the database. */
export const ApiLayer = (dataDir: string) =>
  Layer.unwrapEffect(
    Effect.map(Config.port("PORT").pipe(Config.withDefault(8080)), (port) =>
      ApiServerLive({ port }).pipe(Layer.provide([MasterKeyring.layerFromConfig(dataDir), Gate.layerFromConfig])))
  )

/** The API server alone, with its database. */
export const ApiServiceLive = Layer.unwrapEffect(
  Effect.map(DataDirConfig, (dataDir) => ApiLayer(dataDir).pipe(Layer.provide(DatabaseLive(dataDir))))
)
