import { Memory } from "@collector/core"
import { readPgSnapshot } from "@collector/postgres"
import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer } from "effect"

/**
 * The store's state as the settling and the invariants read it, in the memory tables' shapes,
 * whichever store the run used: read all at once, after the passes of a round have ended, never
 * through the ports under test.
 */
export type Snapshot = Memory.StoreSnapshot

export class SnapshotReader extends Context.Tag("@collector/simulation/SnapshotReader")<SnapshotReader, { readonly read: Effect.Effect<Snapshot> }>() {
  /** The memory store's tables, read in one atomic operation. */
  static readonly memory = Layer.effect(SnapshotReader, Effect.map(Memory.MemoryDatabase, (db) => ({ read: Effect.provideService(Memory.readMemorySnapshot, Memory.MemoryDatabase, db) })))
  /** The PostgreSQL database's tables, read in one repeatable-read transaction. */
  static readonly postgres = Layer.effect(SnapshotReader, Effect.map(SqlClient.SqlClient, (sql) => ({ read: Effect.provideService(readPgSnapshot, SqlClient.SqlClient, sql) })))
}
