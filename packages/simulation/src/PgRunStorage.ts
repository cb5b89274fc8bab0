import { MigrationsLive, PgStorage, ServerAdmin } from "@collector/postgres"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer } from "effect"
import { randomBytes } from "node:crypto"
import type { ConnectionCuts } from "./faults/ConnectionCuts.js"
import { moneySteps } from "./faults/MoneySteps.js"
import type { RunStorage } from "./RunStorage.js"
import { SnapshotReader } from "./Snapshot.js"
import { TrackedPool } from "./TrackedPool.js"

/** A new, empty database on `server` for one run, dropped when the run ends. */
export const freshDatabase = (server: string) =>
  Effect.acquireRelease(
    Effect.gen(function*() {
      // The name is outside the run: it never reaches the trace.
      const name = `simulation_${randomBytes(8).toString("hex")}`
      yield* ServerAdmin.onAdmin(server, `CREATE DATABASE ${name}`).pipe(Effect.orDie)
      return { name, url: ServerAdmin.databaseUrlOn(server, name) }
    }),
    ({ name }) => ServerAdmin.dropDatabase(server, name).pipe(Effect.ignore)
  )

/**
 * The columns the adapters stamp with the database's clock (`now()`), not the run's: they differ
 * from one run of a seed to the next, so the trace leaves them out.
 */
const databaseStamped = {
  tenants: ["createdAt", "updatedAt"],
  apps: ["createdAt", "secretRotatedAt"],
  wallets: ["createdAt"],
  scanCursors: ["updatedAt"],
  tenantSettings: ["collectionUpdatedAt", "automationUpdatedAt", "webhookUpdatedAt"]
}

/**
 * The PostgreSQL adapters on a fresh, migrated database of `server`, over one connection whose
 * every query the run's time waits for: one connection runs the statements one at a time in the
 * order the fibers issued them, so a seed replays the same interleaving, and the same row IDs from
 * the sequences. The trace is the run's lines and the final snapshot. `cuts` break that connection
 * in the middle of the money-moving steps (`moneySteps` marks them on the ports).
 */
export const postgresStorage = (server: string, cuts: ConnectionCuts): RunStorage => {
  const pool = new TrackedPool(cuts)
  const database = Layer.unwrapScoped(
    Effect.map(freshDatabase(server), ({ url }) =>
      Layer.provideMerge(MigrationsLive, PgClient.layerFromPool({ acquire: pool.acquire(url), applicationName: "trc20-collector-simulation" })).pipe(
        Layer.orDie
      ))
  )
  const storage = moneySteps(cuts).pipe(Layer.provideMerge(PgStorage.pipe(Layer.provideMerge(database))))
  return {
    layer: SnapshotReader.postgres.pipe(Layer.provideMerge(storage)),
    pendingWork: pool,
    tracedSnapshot: { ignored: databaseStamped }
  }
}
