import { Clock, Effect, Layer } from "effect"
import { IdempotencyConflict, type IdempotencyKey, idempotencyPrunable, IdempotencyStore, type SavedOutcome } from "./Idempotency.js"
import * as RowRule from "../kernel/RowRule.js"
import { MemoryDatabase } from "../memory/MemoryDatabase.js"
import { idempotencyRecords, keyOf, tenants } from "../memory/MemoryTables.js"

class Rollback {
  constructor(readonly outcome: SavedOutcome) {}
}

const recordKey = (key: IdempotencyKey) => keyOf(key.tenantId, key.network, key.operation, key.requestId)

/**
 * Idempotency in one transaction per request, as in PostgreSQL: the key is claimed first, and a
 * concurrent duplicate waits for the whole transaction (the database's lock) before it reads the
 * saved outcome, or finds no key if the first rolled back. The work runs in a savepoint so that a
 * business rejection undoes its writes while the key and the rejection stay saved.
 */
export const make = Effect.gen(function*() {
  const db = yield* MemoryDatabase
  const records = db.table(idempotencyRecords)
  const tenantRows = db.table(tenants)

  const once = <E, R>(key: IdempotencyKey, paramsDigest: string, work: Effect.Effect<SavedOutcome, E, R>) =>
    db.transaction(
      Effect.gen(function*() {
        const millis = yield* Clock.currentTimeMillis
        const saved = yield* db.atomically(() => {
          const found = records.get(recordKey(key))
          if (found !== undefined) return found
          if (!tenantRows.has(key.tenantId)) throw new Error(`idempotency_records: no tenant ${key.tenantId}`)
          records.put(recordKey(key), { ...key, paramsDigest, outcome: "running", response: null, createdAt: new Date(millis) })
          return undefined
        })
        if (saved !== undefined) {
          if (saved.paramsDigest !== paramsDigest) return yield* new IdempotencyConflict({ requestId: key.requestId })
          return { _tag: saved.outcome, json: saved.response } as SavedOutcome
        }
        const outcome = yield* db.transaction(
          Effect.flatMap(work, (outcome) => outcome._tag === "Rejected" ? Effect.fail(new Rollback(outcome)) : Effect.succeed(outcome))
        ).pipe(Effect.catchIf((e): e is Rollback => e instanceof Rollback, (rollback) => Effect.succeed(rollback.outcome)))
        yield* db.atomically(() => records.update(recordKey(key), (row) => ({ ...row, outcome: outcome._tag, response: outcome.json })))
        return outcome
      })
    )

  const prune = (before: Date, limit: number) =>
    db.atomically(() => {
      const old = [...records.entries()]
        .filter(([, row]) => RowRule.holds(idempotencyPrunable, row, { before }))
        .sort(([, a], [, b]) => a.createdAt.getTime() - b.createdAt.getTime())
        .slice(0, limit)
      for (const [key] of old) records.delete(key)
      return old.length
    })

  return IdempotencyStore.of({ once, prune })
})

export const layer = Layer.effect(IdempotencyStore, make)
