import { SqlClient } from "@effect/sql"
import { isDatabaseUnavailable } from "@collector/http-server"
import { PgClient } from "@effect/sql-pg"
import { Cause, Effect, Exit, Layer } from "effect"
import { describe, expect, inject, it } from "vitest"
import type { CutPhase, StepRun } from "./faults/ConnectionCuts.js"
import { freshDatabase } from "./PgRunStorage.js"
import { type StatementCuts, TrackedPool } from "./TrackedPool.js"

/** Cuts at the `statement`-th statement sent once armed (every statement belongs to one step here). */
const cutAtStatement = (statement: number, phase: CutPhase) => {
  const step: StepRun = { kind: "sweep.finish", statements: 0, cutAt: { statement, phase }, cut: false }
  let armed = false
  const cuts: StatementCuts = {
    current: () => (armed ? step : undefined),
    at: (run) => {
      run.statements++
      return run.statements === statement ? phase : undefined
    }
  }
  return { cuts, arm: () => (armed = true), disarm: () => (armed = false) }
}

const onTrackedPool = <A, E>(cuts: StatementCuts, body: (sql: SqlClient.SqlClient) => Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    const { url } = yield* freshDatabase(inject("databaseAdminUrl"))
    const pool = new TrackedPool(cuts)
    const client = PgClient.layerFromPool({ acquire: pool.acquire(url), applicationName: "tracked-pool-test" })
    return yield* Effect.flatMap(SqlClient.SqlClient, body).pipe(Effect.provide(Layer.orDie(client)))
  }).pipe(Effect.scoped, Effect.runPromise)

const lostConnection = (exit: Exit.Exit<unknown, unknown>) =>
  Exit.isFailure(exit) && [...Cause.defects(exit.cause), ...Cause.failures(exit.cause)].some(isDatabaseUnavailable)

describe("TrackedPool's connection cuts", () => {
  it("cuts after a transaction's COMMIT ran: the caller hears of a lost connection, the commit stands, the next statement gets a new connection", async () => {
    const { arm, cuts, disarm } = cutAtStatement(3, "after")
    const seen = await onTrackedPool(cuts, (sql) =>
      Effect.gen(function*() {
        yield* sql`CREATE TABLE t (id int PRIMARY KEY, v int NOT NULL)`
        arm()
        // BEGIN, INSERT, COMMIT: the third is cut once it ran.
        const exit = yield* Effect.exit(sql.withTransaction(sql`INSERT INTO t VALUES (1, 1)`))
        disarm()
        const rows = yield* sql<{ v: number }>`SELECT v FROM t WHERE id = 1`
        return { lost: lostConnection(exit), rows: rows.map((r) => r.v) }
      }).pipe(Effect.orDie))
    expect(seen).toEqual({ lost: true, rows: [1] })
  }, 60_000)

  it("cuts after a statement inside a transaction: rolled back, its row lock released by the time the caller hears of it", async () => {
    const { arm, cuts, disarm } = cutAtStatement(2, "after")
    const seen = await onTrackedPool(cuts, (sql) =>
      Effect.gen(function*() {
        yield* sql`CREATE TABLE t (id int PRIMARY KEY, v int NOT NULL)`
        yield* sql`INSERT INTO t VALUES (1, 1)`
        arm()
        const exit = yield* Effect.exit(sql.withTransaction(Effect.zipRight(sql`UPDATE t SET v = 2 WHERE id = 1`, sql`UPDATE t SET v = 3 WHERE id = 1`)))
        disarm()
        // NOWAIT fails at once (55P03) while the cut connection's backend still holds the row.
        const rows = yield* sql<{ v: number }>`SELECT v FROM t WHERE id = 1 FOR UPDATE NOWAIT`
        return { lost: lostConnection(exit), rows: rows.map((r) => r.v) }
      }).pipe(Effect.orDie))
    expect(seen).toEqual({ lost: true, rows: [1] })
  }, 60_000)

  it("cuts before a statement is sent: it never runs", async () => {
    const { arm, cuts, disarm } = cutAtStatement(1, "before")
    const seen = await onTrackedPool(cuts, (sql) =>
      Effect.gen(function*() {
        yield* sql`CREATE TABLE t (id int PRIMARY KEY, v int NOT NULL)`
        arm()
        const exit = yield* Effect.exit(sql`INSERT INTO t VALUES (1, 1)`)
        disarm()
        const rows = yield* sql<{ n: string }>`SELECT count(*)::text AS n FROM t`
        return { lost: lostConnection(exit), rows: rows.map((r) => r.n) }
      }).pipe(Effect.orDie))
    expect(seen).toEqual({ lost: true, rows: ["0"] })
  }, 60_000)
})
