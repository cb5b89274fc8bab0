import { SqlClient } from "@effect/sql"
import { Storage } from "@collector/core"
import { Effect, Layer } from "effect"

export const make = Effect.map(SqlClient.SqlClient, (sql) =>
  Storage.StorageProbe.of({
    ping: sql`SELECT 1`.pipe(Effect.asVoid, Effect.mapError((cause) => new Storage.StorageUnreachable({ cause })))
  }))

export const layer = Layer.effect(Storage.StorageProbe, make)
