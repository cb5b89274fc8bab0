import { acquireEmbeddedDatabase, databaseSettings, freePort } from "@collector/postgres"
import { Effect, Option, Redacted } from "effect"
import { rmSync } from "node:fs"
import { resolve } from "node:path"

/**
 * The PostgreSQL server that holds the postgres runs' databases (each run creates its own and
 * drops it): the one `DATABASE_URL` names, as for `npm test`, or an embedded one in a throw-away
 * directory, stopped and removed when the scope closes.
 */
export const databaseServer = Effect.gen(function*() {
  // Read through its declaration, so a malformed URL gets the sentence every process gives.
  const configured = yield* databaseSettings.url.pipe(Effect.orDie)
  if (Option.isSome(configured)) return Redacted.value(configured.value)
  const directory = resolve(".data", `simulate-pg-${process.pid}`)
  yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(directory, { recursive: true, force: true })))
  const port = yield* Effect.promise(freePort)
  return Redacted.value(yield* acquireEmbeddedDatabase({ directory, port, persistent: false }).pipe(Effect.orDie))
})
