import { NodeRuntime } from "@effect/platform-node"
import { Cause, Config, ConfigError, ConfigProvider, Effect, Exit, Layer, Logger, Option } from "effect"
import { jsonLogger } from "./JsonLogger.js"
import { logFormatConfig } from "./LogFormat.js"
import { logLevelConfig } from "./LogLevelSetting.js"
import { mistypedSettings } from "./MistypedSettings.js"
import { shutdownGraceConfig } from "./ShutdownGrace.js"
import { outgoingRequestPrivacy, tracingLayer } from "./Tracing.js"
import { tracingConfig } from "./TracingConfig.js"
import { version } from "./Version.js"

const launchConfig = (what: string) =>
  Config.all({
    level: logLevelConfig,
    format: logFormatConfig(process.stdout.isTTY === true),
    graceMs: shutdownGraceConfig,
    tracing: tracingConfig(what)
  })

/** Where spans go, for the start line: without a user or password the URL might carry. */
const shownUrl = (url: string) => {
  const shown = new URL(url)
  shown.username = ""
  shown.password = ""
  return shown.toString()
}

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

interface NodeSystemError {
  readonly code?: string
  readonly address?: string
  readonly port?: number
  readonly message?: string
}

/**
 * The port settings of a process, each with the port it names now (its variable, or its default),
 * so that a taken port's message says which setting to change.
 */
export type PortSettings = ReadonlyArray<readonly [variable: string, port: number]>

/** `defaults` resolved against the environment: each variable's value when set, else its default. */
export const portSettings = (defaults: Readonly<Record<string, number>>, env: NodeJS.ProcessEnv = process.env): PortSettings =>
  Object.entries(defaults).map(([variable, port]) => [variable, Number(env[variable] ?? port)] as const)

const changeHint = (port: number | undefined, ports: PortSettings) => {
  const variable = ports.find(([, p]) => p === port)?.[0]
  return variable === undefined ? "set another port" : `set ${variable} to another port`
}

/** The one system error an operator meets at start: a port some other process holds. */
const describeSystemError = (error: NodeSystemError | undefined, ports: PortSettings): string | undefined =>
  error?.code === "EADDRINUSE" || error?.code === "EACCES"
    ? `cannot listen on ${error.address ?? "the address"}:${error.port ?? "?"}: ${error.code === "EADDRINUSE" ? "the port is in use by another process" : "permission denied"} (${changeHint(error.port, ports)})`
    : undefined

// A process that cannot start says why in one line (bad setting, missing key, database
// unreachable, port taken) and exits 1; the stack trace is noise to an operator.
export const describeStartFailure = (error: unknown, ports: PortSettings = []): string => {
  if (ConfigError.isConfigError(error)) return describeConfigError(error)
  const { cause, message } = error as { readonly message?: string; readonly cause?: NodeSystemError }
  const system = describeSystemError(cause, ports) ?? describeSystemError(error as NodeSystemError, ports)
  if (system !== undefined) return system
  if (!message) return cause?.message ?? String(error)
  return cause?.message ? `${message}: ${cause.message}` : message
}

export interface LaunchOptions {
  /**
   * The start line's fields (networks, ports, storage; never a secret), read once the process
   * runs. The line also carries the version and how long the start took.
   */
  readonly describe?: Effect.Effect<Record<string, unknown>, unknown>
  /** The process's port variables and their defaults (`{ PORT: 8080 }`): a taken port's message names its variable. */
  readonly ports?: Readonly<Record<string, number>>
}

const loggerOf = (format: "json" | "pretty") => format === "json" ? Logger.replace(Logger.defaultLogger, jsonLogger) : Logger.pretty

/**
 * Runs a process's layer until SIGINT or SIGTERM. Logs go to stdout as JSON lines or pretty text
 * (`LOG_FORMAT`) at `LOG_LEVEL`. Spans are exported over OTLP/HTTP when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` is set (`TracingConfig.ts`, `Tracing.ts`); otherwise the tracer is
 * off altogether (span bookkeeping was a large share of each request, and nothing would read the
 * spans). The process writes `<what> started` once its layer is up, `<what> stopping` on
 * a signal, and `<what> stopped` when everything it started has stopped; it then exits 0. A
 * shutdown longer than `SHUTDOWN_GRACE_MS` exits 1. A layer that cannot be built writes one line to
 * stderr, `<what> cannot start: <reason>`, and exits 1.
 */
export const launch = <E>(what: string, layer: Layer.Layer<never, E>, options: LaunchOptions = {}) => {
  const startedAt = Date.now()
  let running = false
  // Every setting the process reads while it starts, so that a variable set with a slip in its
  // name (PROT=9000), which nothing reads, is pointed out at start rather than silently ignored.
  const read = new Set<string>()
  const recording = ConfigProvider.fromEnv().pipe(ConfigProvider.mapInputPath((name) => {
    read.add(name)
    return name
  }))
  const program = Effect.gen(function*() {
    const settings = yield* launchConfig(what)
    const withLogger = <A, E2>(effect: Effect.Effect<A, E2>) =>
      effect.pipe(Logger.withMinimumLogLevel(settings.level), Effect.provide(loggerOf(settings.format)))

    let stopping = false
    const onSignal = (signal: NodeJS.Signals) => {
      // Ctrl-C reaches npm and node alike and npm passes its own on, so a second signal comes
      // while stopping. The runtime's handler is gone after the first one: without this listener
      // the second would kill the process half-way through its shutdown.
      if (stopping) return
      stopping = true
      Effect.runSync(withLogger(Effect.log(`${what} stopping`).pipe(Effect.annotateLogs({ signal, grace_ms: settings.graceMs }))))
      setTimeout(() => {
        process.stderr.write(`${what} did not stop within SHUTDOWN_GRACE_MS (${settings.graceMs} ms); exiting\n`)
        process.exit(1)
      }, settings.graceMs).unref()
    }
    process.on("SIGTERM", onSignal)
    process.on("SIGINT", onSignal)

    const announce = Effect.gen(function*() {
      const fields = yield* (options.describe ?? Effect.succeed({}))
      running = true
      const traces = Option.match(settings.tracing, { onNone: () => ({}), onSome: ({ url }) => ({ traces: shownUrl(url) }) })
      yield* Effect.log(`${what} started`).pipe(Effect.annotateLogs({ version, ...fields, ...traces, start_ms: Date.now() - startedAt }))
      for (const { meant, name } of mistypedSettings(process.env, read)) {
        yield* Effect.logWarning(`${name} is set, but the ${what} has no setting of that name and ignores it: did you mean ${meant}?`)
      }
    })
    const stopped = (exit: Exit.Exit<unknown, unknown>) =>
      running && Exit.isFailure(exit) && Cause.isInterruptedOnly(exit.cause)
        ? Effect.log(`${what} stopped`).pipe(Effect.annotateLogs({ uptime_ms: Date.now() - startedAt }))
        : Effect.void
    const run = Layer.launch(Layer.tap(layer, () => announce)).pipe(Effect.onExit(stopped))
    // The tracer's layer is outside the process's: it is built first and stopped last, so the
    // spans of the shutdown are flushed too.
    return yield* withLogger(Option.match(settings.tracing, {
      onNone: () => run,
      onSome: (tracing) => run.pipe(outgoingRequestPrivacy, Effect.provide(tracingLayer(tracing)), Effect.withTracerEnabled(true))
    }))
  })
  return program.pipe(
    Effect.catchAll((error) =>
      Effect.sync(() => {
        const reason = describeStartFailure(error, portSettings(options.ports ?? {}))
        process.stderr.write(running ? `${what} stopped: ${reason}\n` : `${what} cannot start: ${reason}\n`)
        process.exit(1)
      })
    ),
    Effect.withTracerEnabled(false),
    Effect.withConfigProvider(recording),
    NodeRuntime.runMain({ disablePrettyLogger: true })
  )
}
