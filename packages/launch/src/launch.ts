import { NodeRuntime } from "@effect/platform-node"
import { Config, ConfigError, Effect, Layer, Logger, LogLevel } from "effect"

const LogLevelConfig = Config.logLevel("LOG_LEVEL").pipe(Config.withDefault(LogLevel.Info))

/** A setting's failure in words: our messages name their variable already; others get it in front. */
const describeConfigError = (error: ConfigError.ConfigError): string => {
  switch (error._op) {
    case "And":
      return `${describeConfigError(error.left)}; ${describeConfigError(error.right)}`
    case "Or":
      return `${describeConfigError(error.left)}, or ${describeConfigError(error.right)}`
    default: {
      const name = error.path.join(".")
      return name === "" || error.message.startsWith(name) ? error.message : `${name}: ${error.message}`
    }
  }
}

// A process that cannot start says why in one line (bad setting, missing key, database
// unreachable) and exits 1; the stack trace is noise to an operator.
export const describeStartFailure = (error: unknown): string => {
  if (ConfigError.isConfigError(error)) return describeConfigError(error)
  const { cause, message } = error as { readonly message?: string; readonly cause?: { readonly message?: string } }
  return cause?.message ? `${message}: ${cause.message}` : String(message ?? error)
}

/**
 * Runs a process's layer until SIGINT/SIGTERM: JSON log lines at `LOG_LEVEL`, no tracing (no
 * exporter is configured, and span bookkeeping was a large share of each request), and a
 * readable one-line failure on start. `what` names the process in that line.
 */
export const launch = <E>(what: string, layer: Layer.Layer<never, E>) =>
  Effect.flatMap(LogLevelConfig, (level) => Logger.withMinimumLogLevel(Layer.launch(layer), level)).pipe(
    Effect.catchAll((error) =>
      Effect.sync(() => {
        process.stderr.write(`${what} cannot start: ${describeStartFailure(error)}\n`)
        process.exit(1)
      })
    ),
    Effect.withTracerEnabled(false),
    Effect.provide(Logger.json),
    NodeRuntime.runMain({ disablePrettyLogger: true })
  )
