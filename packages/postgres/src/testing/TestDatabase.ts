import { Effect, Layer, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import pg from "pg"
import { inject } from "vitest"
import { DatabaseAtUrl } from "../Database"
import "./ProvidedContext"

const withAdmin = <A>(f: (client: pg.Client) => Promise<A>) =>
  Effect.promise(async () => {
    const client = new pg.Client({ connectionString: inject("databaseAdminUrl") })
    await client.connect()
    try {
      return await f(client)
    } finally {
      await client.end()
    }
  })

/** A fresh, migrated database for one test file (a copy of the run's template), dropped when the file's layer closes. */
export const freshDatabaseUrl = Effect.acquireRelease(
  Effect.gen(function*() {
    const name = `test_${randomBytes(8).toString("hex")}`
    yield* withAdmin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${inject("databaseTemplate")}`))
    const url = new URL(inject("databaseAdminUrl"))
    url.pathname = `/${name}`
    return { name, url: Redacted.make(url.toString()) }
  }),
  ({ name }) => withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).pipe(Effect.ignore)
)

export const TestDatabaseLive = Layer.unwrapScoped(
  Effect.map(freshDatabaseUrl, ({ url }) => DatabaseAtUrl(url))
)
