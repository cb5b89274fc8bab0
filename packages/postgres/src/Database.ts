import { SqlError } from "@effect/sql/SqlError"
import { PgClient } from "@effect/sql-pg"
import { type Config, Effect, Either, Layer, Option, Redacted } from "effect"
import { resolve } from "node:path"
import { databaseConfig, type DatabaseSettings } from "./DatabaseConfig.js"
import { awaitingDatabase } from "./DatabaseStartWait.js"
import { acquireEmbeddedDatabase } from "./EmbeddedDatabase.js"
import { acquireFailoverPool } from "./FailoverPool.js"
import { MigrationsLive } from "./Migrations.js"
import { isMultiHostUrl, parseMultiHostUrl } from "./MultiHostUrl.js"

// Identifiers stay snake_case in SQL; int8 and numeric stay strings (IDs and money never become numbers).
// A URL with one host stays node-postgres' own; several hosts go through the failover pool.
const clientLayer = (url: Parameters<typeof PgClient.layer>[0]["url"], poolSize: number) => {
  const multiHost = url === undefined || !isMultiHostUrl(Redacted.value(url)) ? undefined : parseMultiHostUrl(Redacted.value(url))
  if (multiHost === undefined) return PgClient.layer({ url, maxConnections: poolSize, applicationName })
  return Either.match(multiHost, {
    // The configuration checked it already; a test's URL that does not parse fails the layer the same way.
    onLeft: (error) => Layer.fail(new SqlError({ cause: error, message: error.message })),
    onRight: (parsed) =>
      PgClient.layerFromPool({ acquire: acquireFailoverPool(parsed, { maxConnections: poolSize, applicationName }), applicationName })
  })
}

const applicationName = "trc20-collector"

/**
 * The database, migrated: the server at `settings.url`, or an embedded real PostgreSQL kept
 * under `<dataDir>/pg` when there is none. A server that is down or still recovering is waited
 * for, up to `startTimeoutMs`.
 */
export const databaseLayer = (settings: DatabaseSettings) =>
  Layer.provideMerge(MigrationsLive, Layer.unwrapScoped(
    Effect.gen(function*() {
      const url = Option.isSome(settings.url)
        ? settings.url.value
        : yield* acquireEmbeddedDatabase({ directory: resolve(settings.dataDir, "pg"), port: settings.embeddedPort, persistent: true })
      return awaitingDatabase(url, settings.startTimeoutMs, clientLayer(url, settings.poolSize))
    })
  ))

/** The database with the settings of `config` (by default the DATABASE_* variables and DATA_DIR). */
export const databaseLayerConfig = (config: Config.Config<DatabaseSettings> = databaseConfig) =>
  Layer.unwrapEffect(Effect.map(config, databaseLayer))

/** A database at a known URL (tests), migrated. */
export const DatabaseAtUrl = (url: Parameters<typeof PgClient.layer>[0]["url"], poolSize = 10) =>
  Layer.provideMerge(MigrationsLive, clientLayer(url, poolSize))
