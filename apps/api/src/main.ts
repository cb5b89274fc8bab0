import { NodeRuntime } from "@effect/platform-node"
import { ApiServerLive, Gate } from "@collector/http-server"
import { DatabaseLive } from "@collector/postgres"
import { MasterKeyring } from "@collector/vault"
import { Config, ConfigError, Effect, Layer, Logger, LogLevel } from "effect"
import { resolve } from "node:path"

const ServiceLive = Layer.unwrapEffect(
  Effect.gen(function*() {
    const dataDir = resolve(yield* Config.string("DATA_DIR").pipe(Config.withDefault(".data")))
    const port = yield* Config.port("PORT").pipe(Config.withDefault(8080))
    return ApiServerLive({ port }).pipe(
      Layer.provide([DatabaseLive(dataDir), MasterKeyring.layerFromConfig(dataDir), Gate.layerFromConfig])
    )
  })
)

const LogLevelConfig = Config.logLevel("LOG_LEVEL").pipe(Config.withDefault(LogLevel.Info))

// A service that cannot start says why in one line (bad setting, missing key, database
// unreachable) and exits 1; the stack trace is noise to an operator.
const describeStartFailure = (error: unknown): string => {
  if (ConfigError.isConfigError(error)) return String(error).replace(/^\((.*)\)$/s, "$1")
  const { cause, message } = error as { readonly message?: string; readonly cause?: { readonly message?: string } }
  return cause?.message ? `${message}: ${cause.message}` : String(message ?? error)
}

const reportStartFailure = (error: unknown) =>
  Effect.sync(() => {
    process.stderr.write(`service cannot start: ${describeStartFailure(error)}\n`)
    process.exit(1)
  })

Effect.flatMap(LogLevelConfig, (level) => Logger.withMinimumLogLevel(Layer.launch(ServiceLive), level)).pipe(
  Effect.catchAll(reportStartFailure),
  // No span exporter is configured, and span bookkeeping was a large share of each request.
  Effect.withTracerEnabled(false),
  Effect.provide(Logger.json),
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
