import { SqlClient } from "@effect/sql"
import { Operators } from "@collector/core"
import { Effect, Layer } from "effect"

interface Row {
  readonly id: string
  readonly token_id: string
  readonly action: string
  readonly target: string
  readonly outcome: string
  readonly at: Date
}

const entryOf = (row: Row): Operators.AuditEntry => ({ id: row.id, tokenId: row.token_id, action: row.action, target: row.target, outcome: row.outcome, at: row.at })

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return Operators.OperatorAuditLog.of({
    // Only a token is an operator's identity; a session's ID would make the trail ambiguous.
    record: (action) =>
      sql<Row>`INSERT INTO operator_audit (token_id, action, target, outcome, at)
        SELECT id, ${action.action}, ${action.target}, ${action.outcome}, ${action.at} FROM operator_credentials WHERE id = ${action.tokenId} AND kind = 'token'
        RETURNING id::text, token_id::text, action, target, outcome, at`.pipe(
        Effect.orDie,
        Effect.flatMap((rows) => rows[0] === undefined ? Effect.dieMessage(`operator_audit: no token ${action.tokenId}`) : Effect.succeed(entryOf(rows[0])))
      ),
    settle: (id, outcome) =>
      sql`UPDATE operator_audit SET outcome = ${outcome} WHERE id = ${id} AND outcome = ${Operators.actionStarted} RETURNING id`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.length === 1)
      ),
    recent: (limit) =>
      sql<Row>`SELECT id::text, token_id::text, action, target, outcome, at FROM operator_audit a ORDER BY a.id DESC LIMIT ${limit}`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.map(entryOf))
      )
  })
})

export const layer = Layer.effect(Operators.OperatorAuditLog, make)
