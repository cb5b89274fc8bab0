import { ConfigValue, Setting } from "@collector/core"

/**
 * `SHUTDOWN_GRACE_MS` (default 10 000): how long a process may take, after SIGTERM or SIGINT, to
 * finish or roll back what it is doing and stop what it started; past it, it exits with status 1.
 */
export const shutdownGraceConfig: Setting.Setting<number> = Setting.declare({
  name: "SHUTDOWN_GRACE_MS",
  default: 10_000,
  description:
    "After SIGTERM or SIGINT a process stops taking requests, interrupts its work (a request's or a step's transaction rolls back; a claimed webhook attempt or sweep step is retried later) and stops what it started (the embedded PostgreSQL, the simulated node), then exits 0; past this many milliseconds (0 to 600000) it exits 1. `npm start` and the other scripts `exec` node, so a signal to npm reaches it."
}, (name) => ConfigValue.integer(name, { min: 0, max: 600_000, unit: "milliseconds" }))
