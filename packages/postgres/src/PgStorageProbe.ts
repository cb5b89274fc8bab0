import { SqlClient } from "@effect/sql"
import { StorageProbe, StorageUnreachable } from "@collector/core"
import { Effect, Layer } from "effect"

export const make = Effect.map(SqlClient.SqlClient, (sql) =>
  StorageProbe.of({
    ping: sql`SELECT 1`.pipe(Effect.asVoid, Effect.mapError((cause) => new StorageUnreachable({ cause })))
  }))

export const layer = Layer.effect(StorageProbe, make)
