import { acquireEmbeddedDatabase } from "@collector/postgres"
import { Effect, Redacted } from "effect"
import { resolve } from "node:path"
import pg from "pg"
import { freePort, repositoryRoot } from "../../test-support/Processes.js"

/**
 * A new, empty database for one benchmark run: on the server at `DATABASE_URL`, or on an
 * embedded PostgreSQL started for the run. Returns its URL (migrations run when it is opened).
 */
export const benchDatabase = (prefix: string) =>
  Effect.gen(function*() {
    const configured = process.env.DATABASE_URL
    const admin = configured ?? Redacted.value(yield* acquireEmbeddedDatabase({
      directory: resolve(repositoryRoot, ".data", `${prefix}-${process.pid}`),
      port: yield* Effect.promise(freePort),
      persistent: false,
      // BENCH_PG_STATEMENTS=1: per-statement time and buffer reads (pg_stat_statements; embedded server only).
      ...(process.env.BENCH_PG_STATEMENTS === "1"
        ? { settings: { shared_preload_libraries: "pg_stat_statements", "pg_stat_statements.track_planning": "on" } }
        : {})
    }))
    const name = `${prefix.replace(/-/g, "_")}_${process.pid}`
    yield* Effect.promise(async () => {
      const c = new pg.Client({ connectionString: admin })
      await c.connect()
      await c.query(`CREATE DATABASE ${name}`)
      await c.end()
    })
    const url = new URL(admin)
    url.pathname = `/${name}`
    return url.toString()
  })
