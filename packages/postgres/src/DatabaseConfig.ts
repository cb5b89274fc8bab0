import { ConfigValue, Setting } from "@collector/core"
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
const databaseUrl = (name: string) => Config.redacted(name).pipe(
  Config.mapOrFail((url) => {
    const text = Redacted.value(url)
    if (isMultiHostUrl(text)) {
      return Either.mapBoth(parseMultiHostUrl(text), { onLeft: (error) => ConfigError.InvalidData([], error.message), onRight: () => url })
    }
    return isPostgresUrl(text)
      ? Either.right(url)
      : Either.left(ConfigError.InvalidData([], `${name} must be a PostgreSQL URL: postgres://user:password@host:5432/database`))
  })
)

/** `DATABASE_URL`, `DATA_DIR`, `EMBEDDED_PG_PORT`, `DATABASE_POOL_SIZE`, `DATABASE_START_TIMEOUT_MS`. */
export const databaseSettings = {
  url: Setting.declare({
    name: "DATABASE_URL",
    shown: "(embedded)",
    description: "PostgreSQL server to use. Unset: an embedded real PostgreSQL 15 under `DATA_DIR/pg`."
  }, (name) => Config.option(databaseUrl(name))),
  dataDir: ConfigValue.dataDir,
  embeddedPort: Setting.declare({
    name: "EMBEDDED_PG_PORT",
    default: 54329,
    description:
      "Port of the embedded PostgreSQL (loopback only; 1 to 65535). A CLI started while the service runs shares it. A server on the port that refuses this `DATA_DIR`'s password (a second instance left on the default port) is refused at start: give each instance its own port. The superuser's password is random, in `DATA_DIR/pg.password` (0600), `scram-sha-256` only ([deployment.md](deployment.md#the-embedded-database))."
  }, ConfigValue.port),
  poolSize: Setting.declare({ name: "DATABASE_POOL_SIZE", default: 20, description: "Connections per process (1 to 200)." }, (name) =>
    ConfigValue.integer(name, { min: 1, max: 200 })),
  startTimeoutMs: Setting.declare({
    name: "DATABASE_START_TIMEOUT_MS",
    default: 60_000,
    description:
      "How long a process that starts while its `DATABASE_URL` server is down, starting or in crash recovery waits for it (0 to 86400000). It logs one warning that it is waiting, tries again with a back-off from 250 ms to 5 s, and then exits 1 with one line naming the server and the last error. A refused password or a missing database ends the start at once."
  }, (name) => ConfigValue.integer(name, { min: 0, max: 86_400_000, unit: "milliseconds" }))
}

export const databaseConfig: Config.Config<DatabaseSettings> = Config.all(databaseSettings)
