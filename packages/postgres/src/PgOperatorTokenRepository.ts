import { SqlClient } from "@effect/sql"
import { Operators } from "@collector/core"
import { Effect, Layer, Option } from "effect"

interface Row {
  readonly id: string
  readonly kind: Operators.OperatorCredentialKind
  readonly token_id: string
  readonly created_at: Date
  readonly expires_at: Date
  readonly revoked_at: Date | null
}

const columns = "id::text, kind, COALESCE(token_id, id)::text AS token_id, created_at, expires_at, revoked_at"

const credentialOf = (row: Row): Operators.OperatorCredential => ({
  id: row.id,
  kind: row.kind,
  tokenId: row.token_id,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at
})

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const one = (rows: ReadonlyArray<Row>) => Option.map(Option.fromNullable(rows[0]), credentialOf)
  return Operators.OperatorTokenRepository.of({
    insert: (secretHash, credential) =>
      // A session's token must be a token, not another session: the join finds nothing otherwise.
      (credential.kind === "token"
        ? sql<Row>`INSERT INTO operator_credentials (kind, secret_hash, expires_at) VALUES ('token', ${secretHash}, ${credential.expiresAt}) RETURNING ${sql.unsafe(columns)}`
        : sql<Row>`INSERT INTO operator_credentials (kind, token_id, secret_hash, expires_at)
            SELECT 'session', id, ${secretHash}, ${credential.expiresAt} FROM operator_credentials WHERE id = ${credential.tokenId} AND kind = 'token'
            RETURNING ${sql.unsafe(columns)}`).pipe(
          Effect.orDie,
          Effect.flatMap((rows) => rows[0] === undefined ? Effect.dieMessage(`operator_credentials: no token ${credential.tokenId}`) : Effect.succeed(credentialOf(rows[0])))
        ),
    findByHash: (secretHash) =>
      sql<Row>`SELECT ${sql.unsafe(columns)} FROM operator_credentials WHERE secret_hash = ${secretHash}`.pipe(Effect.orDie, Effect.map(one)),
    get: (id) =>
      /^[1-9][0-9]{0,18}$/.test(id)
        ? sql<Row>`SELECT ${sql.unsafe(columns)} FROM operator_credentials WHERE id = ${id}`.pipe(Effect.orDie, Effect.map(one))
        : Effect.succeed(Option.none()),
    listTokens: (limit) =>
      sql<Row>`SELECT ${sql.unsafe(columns)} FROM operator_credentials c WHERE kind = 'token' ORDER BY c.id DESC LIMIT ${limit}`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.map(credentialOf))
      ),
    revoke: (id, at) =>
      /^[1-9][0-9]{0,18}$/.test(id)
        ? sql<Row>`UPDATE operator_credentials SET revoked_at = COALESCE(revoked_at, ${at}) WHERE id = ${id} RETURNING ${sql.unsafe(columns)}`.pipe(
          Effect.orDie,
          Effect.map(one)
        )
        : Effect.succeed(Option.none())
  })
})

export const layer = Layer.effect(Operators.OperatorTokenRepository, make)
