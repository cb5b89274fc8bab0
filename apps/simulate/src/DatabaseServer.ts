import { acquireEmbeddedDatabase, freePort } from "@collector/postgres"
import { Effect, Redacted } from "effect"
import { rmSync } from "node:fs"
import { resolve } from "node:path"

/**
 * The PostgreSQL server that holds the postgres runs' databases (each run creates its own and
 * drops it): the one `DATABASE_URL` names, as for `npm test`, or an embedded one in a throw-away
 * directory, stopped and removed when the scope closes.
 */
export const databaseServer = Effect.gen(function*() {
  const configured = process.env.DATABASE_URL
  if (configured !== undefined && configured !== "") return configured
  const directory = resolve(".data", `simulate-pg-${process.pid}`)
  yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(directory, { recursive: true, force: true })))
  const port = yield* Effect.promise(freePort)
  return Redacted.value(yield* acquireEmbeddedDatabase({ directory, port, persistent: false }).pipe(Effect.orDie))
})
