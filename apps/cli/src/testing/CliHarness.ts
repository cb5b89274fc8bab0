import { freshDatabaseUrl } from "@collector/postgres/testing"
import { Effect, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import pg from "pg"
import { runTs } from "../../../../test-support/Processes.js"

/** Runs the CLI as an operator does, as its own process, with `env` as its environment. */
export const cliIn = (env: Record<string, string>) => (...args: Array<string>) => Effect.promise(() => runTs("apps/cli/src/main.ts", env, args))

/** A fresh database with a new master key, and the CLI pointed at it. */
export const withDatabase = Effect.map(freshDatabaseUrl, ({ url }) => {
  const env = { DATABASE_URL: Redacted.value(url), MASTER_KEY: randomBytes(32).toString("base64") }
  return { env, cli: cliIn(env), url: Redacted.value(url) }
})

/** One query on its own connection: what the CLI stored, read without the CLI. */
export const query = (url: string, text: string) =>
  Effect.promise(async () => {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      return (await client.query(text)).rows
    } finally {
      await client.end()
    }
  })
