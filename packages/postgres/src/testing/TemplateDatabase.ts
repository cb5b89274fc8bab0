import { Effect, Layer, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import pg from "pg"
import { DatabaseAtUrl } from "../Database"

/** Runs one statement on the server's administrative database. */
export const onAdmin = (adminUrl: string, statement: string) =>
  Effect.tryPromise({
    try: async () => {
      const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 10_000 })
      await client.connect()
      try {
        await client.query(statement)
      } finally {
        await client.end()
      }
    },
    catch: (cause) => new Error(`the test PostgreSQL at ${new URL(adminUrl).host} could not run \`${statement}\`: ${String(cause)}`)
  })

const urlOf = (adminUrl: string, database: string) => {
  const url = new URL(adminUrl)
  url.pathname = `/${database}`
  return url.toString()
}

/**
 * A database migrated once for the whole test run. Each test file copies it
 * (`CREATE DATABASE … TEMPLATE`), which costs a third of creating and migrating its own. The name
 * is unique per run: two runs may share one server.
 */
export const createTemplateDatabase = (adminUrl: string) =>
  Effect.gen(function*() {
    const name = `test_template_${randomBytes(6).toString("hex")}`
    yield* onAdmin(adminUrl, `CREATE DATABASE ${name}`)
    // The migrating client's pool is closed before any copy: a template must have no connections.
    yield* Layer.build(DatabaseAtUrl(Redacted.make(urlOf(adminUrl, name)), 1)).pipe(Effect.scoped, Effect.orDie)
    return name
  })

export const dropDatabase = (adminUrl: string, name: string) =>
  onAdmin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
