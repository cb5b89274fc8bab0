import { Config } from "effect"

/**
 * `SHUTDOWN_GRACE_MS` (default 10 000): how long a process may take, after SIGTERM or SIGINT, to
 * finish or roll back what it is doing and stop what it started; past it, it exits with status 1.
 */
export const shutdownGraceConfig: Config.Config<number> = Config.integer("SHUTDOWN_GRACE_MS").pipe(
  Config.validate({ message: "SHUTDOWN_GRACE_MS must be a whole number of milliseconds from 0 to 600000", validation: (ms) => ms >= 0 && ms <= 600_000 }),
  Config.withDefault(10_000)
)
