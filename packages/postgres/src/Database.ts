import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Option } from "effect"
import { join } from "node:path"
import { DatabaseConfig } from "./DatabaseConfig"
import { awaitingDatabase } from "./DatabaseStartWait"
import { acquireEmbeddedDatabase } from "./EmbeddedDatabase"
import { MigrationsLive } from "./Migrations"

// Identifiers stay snake_case in SQL; int8 and numeric stay strings (IDs and money never become numbers).
const clientLayer = (url: Parameters<typeof PgClient.layer>[0]["url"], poolSize: number) =>
  PgClient.layer({ url, maxConnections: poolSize, applicationName: "trc20-collector" })

/**
 * The database, migrated: the server named by `DATABASE_URL`, or an embedded real PostgreSQL
 * kept under `<dataDir>/pg` when no URL is configured. A server that is down or still recovering
 * is waited for, up to `DATABASE_START_TIMEOUT_MS`.
 */
export const DatabaseLive = (dataDir: string) =>
  Layer.provideMerge(MigrationsLive, Layer.unwrapScoped(
    Effect.gen(function*() {
      const config = yield* DatabaseConfig
      const url = Option.isSome(config.url)
        ? config.url.value
        : yield* acquireEmbeddedDatabase({ directory: join(dataDir, "pg"), port: config.embeddedPort, persistent: true })
      return awaitingDatabase(url, config.startTimeoutMs, clientLayer(url, config.poolSize))
    })
  ))

/** A database at a known URL (tests), migrated. */
export const DatabaseAtUrl = (url: Parameters<typeof PgClient.layer>[0]["url"], poolSize = 10) =>
  Layer.provideMerge(MigrationsLive, clientLayer(url, poolSize))
