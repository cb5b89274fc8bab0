import { Effect } from "effect"
import pg from "pg"

/** Runs one statement on the server's administrative database (creating and dropping throw-away databases). */
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

/** The URL of another database on the same server. */
export const databaseUrlOn = (adminUrl: string, database: string) => {
  const url = new URL(adminUrl)
  url.pathname = `/${database}`
  return url.toString()
}

export const dropDatabase = (adminUrl: string, name: string) =>
  onAdmin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
