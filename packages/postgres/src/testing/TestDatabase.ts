import { Effect, Layer, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { DatabaseAtUrl } from "../Database.js"
import "./ProvidedContext.js"
import { databaseUrlOn, dropDatabase, onAdmin } from "../ServerAdmin.js"

// vitest is loaded only when a test file asks for a database: it throws when imported outside a
// vitest run, and benchmarks import this package's testing entry for its other helpers.
const provided = Effect.promise(() => import("vitest")).pipe(
  Effect.map(({ inject }) => ({ adminUrl: inject("databaseAdminUrl"), template: inject("databaseTemplate") }))
)

/** A fresh, migrated database for one test file (a copy of the run's template), dropped when the file's layer closes. */
export const freshDatabaseUrl = Effect.acquireRelease(
  Effect.gen(function*() {
    const { adminUrl, template } = yield* provided
    const name = `test_${randomBytes(8).toString("hex")}`
    yield* onAdmin(adminUrl, `CREATE DATABASE ${name} TEMPLATE ${template}`).pipe(Effect.orDie)
    return { name, adminUrl, url: Redacted.make(databaseUrlOn(adminUrl, name)) }
  }),
  ({ adminUrl, name }) => dropDatabase(adminUrl, name).pipe(Effect.ignore)
)

export const TestDatabaseLive = Layer.unwrapScoped(
  Effect.map(freshDatabaseUrl, ({ url }) => DatabaseAtUrl(url))
)

/**
 * A fresh database whose every session starts with these planner settings (`enable_nestloop:
 * "off"`, …): to run a contract under the plans the planner picks on other data, where a
 * statement's row order is whatever its joins happen to give.
 */
export const testDatabaseWith = (settings: Readonly<Record<string, string>>) =>
  Layer.unwrapScoped(
    Effect.gen(function*() {
      const { adminUrl, name, url } = yield* freshDatabaseUrl
      for (const [setting, value] of Object.entries(settings)) {
        yield* onAdmin(adminUrl, `ALTER DATABASE ${name} SET ${setting} = ${value}`).pipe(Effect.orDie)
      }
      return DatabaseAtUrl(url)
    })
  )
