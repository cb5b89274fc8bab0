import { SqlClient } from "@effect/sql"
import { type Kernel, Tenants } from "@collector/core"
import { Effect, Layer, Option } from "effect"
import { render } from "./RowRuleSql.js"

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return Tenants.AccessTokenRepository.of({
    // A token lost in a crash costs the client one more token request, so its commit does not
    // wait for the WAL flush (the dominant cost of the token operation). One statement in its own
    // transaction: the setting, made local by RETURNING before the commit, holds for that commit
    // alone; an explicit transaction around SET LOCAL took four round trips for the same effect.
    insert: (tokenHash, appId, expiresAt) =>
      sql`INSERT INTO access_tokens (token_hash, app_id, expires_at) VALUES (${tokenHash}, ${appId}, ${expiresAt}) RETURNING set_config('synchronous_commit', 'off', true)`
        .pipe(Effect.orDie, Effect.asVoid),
    find: (tokenHash) =>
      sql<{ app_id: string; expires_at: Date }>`SELECT app_id, expires_at FROM access_tokens WHERE token_hash = ${tokenHash}`.pipe(
        Effect.orDie,
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (r) => ({ appId: String(r.app_id) as Kernel.AppId, expiresAt: r.expires_at })))
      ),
    // A batch picked on the expiry index, so one pass holds few row locks and little WAL.
    deleteExpired: (now, limit) =>
      sql<{ n: string }>`WITH gone AS (
        DELETE FROM access_tokens WHERE token_hash IN (
          SELECT token_hash FROM access_tokens WHERE ${render(sql, Tenants.accessTokenExpired, { expiresAt: "expires_at" }, { now })} ORDER BY expires_at LIMIT ${limit}
        ) RETURNING 1
      ) SELECT count(*)::text AS n FROM gone`.pipe(
        Effect.orDie,
        Effect.map((rows) => Number(rows[0]?.n ?? 0))
      )
  })
})

export const layer = Layer.effect(Tenants.AccessTokenRepository, make)
