import { SqlClient } from "@effect/sql"
import { Idempotency } from "@collector/core"
import { Effect, Exit, Layer } from "effect"
import { render } from "./RowRuleSql.js"

class Rollback {
  constructor(readonly outcome: Idempotency.SavedOutcome) {}
}

/**
 * Idempotency in one transaction per request. The key row is inserted first: a concurrent
 * duplicate blocks on the primary key until the first transaction ends, then reads the saved
 * outcome (or, if the first rolled back, runs the work itself). The work runs in a savepoint so
 * that a business rejection undoes its writes while the key and the rejection stay saved.
 */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const once: Idempotency.IdempotencyStore["Type"]["once"] = (key, paramsDigest, work) =>
    sql.withTransaction(
      Effect.gen(function*() {
        const claimed = yield* sql`
          INSERT INTO idempotency_records (tenant_id, network, operation, request_id, params_digest, outcome)
          VALUES (${key.tenantId}, ${key.network}, ${key.operation}, ${key.requestId}, ${paramsDigest}, 'running')
          ON CONFLICT DO NOTHING RETURNING 1`
        if (claimed.length === 0) {
          const [saved] = yield* sql<{ params_digest: string; outcome: Idempotency.SavedOutcome["_tag"]; response: string }>`
            SELECT params_digest, outcome, response FROM idempotency_records
            WHERE tenant_id = ${key.tenantId} AND network = ${key.network}
              AND operation = ${key.operation} AND request_id = ${key.requestId}`
          if (saved === undefined || saved.params_digest !== paramsDigest) {
            return yield* new Idempotency.IdempotencyConflict({ requestId: key.requestId })
          }
          return { _tag: saved.outcome, json: saved.response } as Idempotency.SavedOutcome
        }
        const exit = yield* sql.withTransaction(
          Effect.flatMap(work, (outcome) => outcome._tag === "Rejected" ? Effect.fail(new Rollback(outcome)) : Effect.succeed(outcome))
        ).pipe(Effect.exit)
        const outcome = Exit.isSuccess(exit)
          ? exit.value
          : exit.cause._tag === "Fail" && exit.cause.error instanceof Rollback
          ? exit.cause.error.outcome
          : yield* exit as Exit.Exit<never, never>
        yield* sql`
          UPDATE idempotency_records SET outcome = ${outcome._tag}, response = ${outcome.json}
          WHERE tenant_id = ${key.tenantId} AND network = ${key.network}
            AND operation = ${key.operation} AND request_id = ${key.requestId}`
        return outcome
      })
    ).pipe(Effect.catchTag("SqlError" as never, Effect.die)) as never

  // A batch picked on the creation-time index (migration 0018); a running record keeps its key
  // locked by its own transaction and is skipped, so a request in progress never loses its key.
  const prune: Idempotency.IdempotencyStore["Type"]["prune"] = (before, limit) =>
    sql<{ n: string }>`WITH gone AS (
      DELETE FROM idempotency_records WHERE (tenant_id, network, operation, request_id) IN (
        SELECT tenant_id, network, operation, request_id FROM idempotency_records
        WHERE ${render(sql, Idempotency.idempotencyPrunable, { outcome: "outcome", createdAt: "created_at" }, { before })}
        ORDER BY created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
      ) RETURNING 1
    ) SELECT count(*)::text AS n FROM gone`.pipe(
      Effect.orDie,
      Effect.map((rows) => Number(rows[0]?.n ?? 0))
    )

  return Idempotency.IdempotencyStore.of({ once, prune })
})

export const layer = Layer.effect(Idempotency.IdempotencyStore, make)
