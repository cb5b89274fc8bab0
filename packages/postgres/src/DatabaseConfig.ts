import { ConfigValue } from "@collector/core"
import { Config, type Option, type Redacted } from "effect"

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

/** `DATABASE_URL`, `DATA_DIR`, `EMBEDDED_PG_PORT`, `DATABASE_POOL_SIZE`, `DATABASE_START_TIMEOUT_MS`. */
export const databaseConfig: Config.Config<DatabaseSettings> = Config.all({
  url: Config.option(Config.redacted("DATABASE_URL")),
  dataDir: ConfigValue.dataDir,
  embeddedPort: ConfigValue.port("EMBEDDED_PG_PORT").pipe(Config.withDefault(54329)),
  poolSize: ConfigValue.integer("DATABASE_POOL_SIZE", { min: 1, max: 200 }).pipe(Config.withDefault(20)),
  startTimeoutMs: ConfigValue.integer("DATABASE_START_TIMEOUT_MS", { min: 0, max: 86_400_000, unit: "milliseconds" }).pipe(Config.withDefault(60_000))
})
