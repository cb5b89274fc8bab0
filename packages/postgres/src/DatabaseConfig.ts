import { Config, Option, Redacted } from "effect"

/** Where the database is: `DATABASE_URL`, or an embedded server under the data directory. */
export const DatabaseConfig = Config.all({
  url: Config.option(Config.redacted("DATABASE_URL")),
  embeddedPort: Config.port("EMBEDDED_PG_PORT").pipe(Config.withDefault(54329)),
  poolSize: Config.integer("DATABASE_POOL_SIZE").pipe(
    Config.validate({ message: "DATABASE_POOL_SIZE must be between 1 and 200", validation: (n) => n >= 1 && n <= 200 }),
    Config.withDefault(20)
  ),
  startTimeoutMs: Config.integer("DATABASE_START_TIMEOUT_MS").pipe(
    Config.validate({ message: "DATABASE_START_TIMEOUT_MS must be between 0 and 86400000", validation: (n) => n >= 0 && n <= 86_400_000 }),
    Config.withDefault(60_000)
  )
})

export const isEmbedded = (config: { readonly url: Option.Option<Redacted.Redacted> }) => Option.isNone(config.url)
