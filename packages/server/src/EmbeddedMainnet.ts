import { ConfigValue, type Kernel, Setting } from "@collector/core"
import type { DatabaseSettings } from "@collector/postgres"
import { ConfigError, Effect, Option } from "effect"

/** `EMBEDDED_DATABASE_MAINNET`: the operator's word that `main` may run on the embedded database. */
export const embeddedMainnetAllowed = Setting.declare({
  name: "EMBEDDED_DATABASE_MAINNET",
  default: false,
  description:
    "`true` lets the worker watch `main` on the embedded database (without `DATABASE_URL`), with a warning at every start naming what to back up; otherwise that start is refused."
}, ConfigValue.boolean)

/**
 * Mainnet money on the embedded database: one process's disk holds every deposit record, sweep
 * task and sealed key, with no replica and no backup unless the operator makes one. Refused unless
 * `EMBEDDED_DATABASE_MAINNET=true` says the operator knows it, and then said at every start with
 * what to back up.
 */
export const embeddedMainnetGuard = (networks: ReadonlyArray<Kernel.Network>, database: DatabaseSettings) =>
  Effect.gen(function*() {
    if (Option.isSome(database.url) || !networks.includes("main")) return
    const allowed = yield* embeddedMainnetAllowed
    if (!allowed) {
      return yield* Effect.fail(ConfigError.InvalidData([], "the main network needs DATABASE_URL (a PostgreSQL server you back up): " +
        `the embedded database under ${database.dataDir}/pg has no replica and no backup; set EMBEDDED_DATABASE_MAINNET=true to run main on it anyway`))
    }
    yield* Effect.logWarning(
      `main runs on the embedded database under ${database.dataDir}: back up ${database.dataDir} (pg, pg.password, master.key) ` +
        "with the service stopped or with pg_basebackup, or move to DATABASE_URL; a lost disk loses every deposit record and sealed key"
    )
  })
