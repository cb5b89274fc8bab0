import { Effect, Layer } from "effect"
import { SnapshotReader } from "./Snapshot"

/** The PostgreSQL database's tables in the memory tables' shapes (the schema's columns, camelCase, domain types). */
export const PgSnapshotReader = Layer.succeed(SnapshotReader, { read: Effect.dieMessage("the PostgreSQL snapshot is not written yet") })
