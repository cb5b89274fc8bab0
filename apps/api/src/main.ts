import { NodeRuntime } from "@effect/platform-node"
import { ApiServerLive, Gate } from "@collector/http-server"
import { DatabaseLive } from "@collector/postgres"
import { MasterKeyring } from "@collector/vault"
import { Config, Effect, Layer, Logger, LogLevel } from "effect"
import { resolve } from "node:path"

const ServiceLive = Layer.unwrapEffect(
  Effect.gen(function*() {
    const dataDir = resolve(yield* Config.string("DATA_DIR").pipe(Config.withDefault(".data")))
    const port = yield* Config.port("PORT").pipe(Config.withDefault(8080))
    return ApiServerLive(port).pipe(
      Layer.provide([DatabaseLive(dataDir), MasterKeyring.layerFromConfig(dataDir), Gate.layerFromConfig])
    )
  })
)

const LogLevelConfig = Config.logLevel("LOG_LEVEL").pipe(Config.withDefault(LogLevel.Info))

Effect.flatMap(LogLevelConfig, (level) => Logger.withMinimumLogLevel(Layer.launch(ServiceLive), level)).pipe(
  // No span exporter is configured, and span bookkeeping was a large share of each request.
  Effect.withTracerEnabled(false),
  Effect.provide(Logger.json),
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
