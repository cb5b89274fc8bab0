import { Effect, Layer, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { inject } from "vitest"
import { DatabaseAtUrl } from "../Database"
import "./ProvidedContext"
import { databaseUrlOn, dropDatabase, onAdmin } from "./ServerAdmin"

/** A fresh, migrated database for one test file (a copy of the run's template), dropped when the file's layer closes. */
export const freshDatabaseUrl = Effect.acquireRelease(
  Effect.gen(function*() {
    const name = `test_${randomBytes(8).toString("hex")}`
    yield* onAdmin(inject("databaseAdminUrl"), `CREATE DATABASE ${name} TEMPLATE ${inject("databaseTemplate")}`).pipe(Effect.orDie)
    return { name, url: Redacted.make(databaseUrlOn(inject("databaseAdminUrl"), name)) }
  }),
  ({ name }) => dropDatabase(inject("databaseAdminUrl"), name).pipe(Effect.ignore)
)

export const TestDatabaseLive = Layer.unwrapScoped(
  Effect.map(freshDatabaseUrl, ({ url }) => DatabaseAtUrl(url))
)
