import { ConfigValue } from "@collector/core"
import { Config, ConfigError, Either, type Option, Redacted } from "effect"
import { isMultiHostUrl, parseMultiHostUrl } from "./MultiHostUrl.js"

/** Where the database is and how a process uses it. */
export interface DatabaseSettings {
  /** The server to use; none: an embedded server under `<dataDir>/pg`. */
  readonly url: Option.Option<Redacted.Redacted>
  readonly dataDir: string
  /** Loopback port of the embedded server. */
  readonly embeddedPort: number
  readonly poolSize: number
  /** How long a server that is down or still recovering is waited for at start. */
  readonly startTimeoutMs: number
}

const isPostgresUrl = (text: string) => {
  try {
    const url = new URL(text)
    return (url.protocol === "postgres:" || url.protocol === "postgresql:") && url.hostname !== ""
  } catch {
    return false
  }
}

/**
 * `DATABASE_URL`, checked before anything connects; the message never repeats the value (it holds a
 * password). Several hosts (`db1:5432,db2:5432`) with `target_session_attrs` are checked by our own
 * parser, since node-postgres reads one host only; one host stays as node-postgres reads it.
 */
const databaseUrl = Config.redacted("DATABASE_URL").pipe(
  Config.mapOrFail((url) => {
    const text = Redacted.value(url)
    if (isMultiHostUrl(text)) {
      return Either.mapBoth(parseMultiHostUrl(text), { onLeft: (error) => ConfigError.InvalidData([], error.message), onRight: () => url })
    }
    return isPostgresUrl(text)
      ? Either.right(url)
      : Either.left(ConfigError.InvalidData([], "DATABASE_URL must be a PostgreSQL URL: postgres://user:password@host:5432/database"))
  })
)

/** `DATABASE_URL`, `DATA_DIR`, `EMBEDDED_PG_PORT`, `DATABASE_POOL_SIZE`, `DATABASE_START_TIMEOUT_MS`. */
export const databaseConfig: Config.Config<DatabaseSettings> = Config.all({
  url: Config.option(databaseUrl),
  dataDir: ConfigValue.dataDir,
  embeddedPort: ConfigValue.port("EMBEDDED_PG_PORT").pipe(Config.withDefault(54329)),
  poolSize: ConfigValue.integer("DATABASE_POOL_SIZE", { min: 1, max: 200 }).pipe(Config.withDefault(20)),
  startTimeoutMs: ConfigValue.integer("DATABASE_START_TIMEOUT_MS", { min: 0, max: 86_400_000, unit: "milliseconds" }).pipe(Config.withDefault(60_000))
})
