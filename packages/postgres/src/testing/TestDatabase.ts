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
