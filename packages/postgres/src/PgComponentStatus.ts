import { SqlClient } from "@effect/sql"
import { Engine, type Kernel } from "@collector/core"
import { Effect, Layer } from "effect"

interface StatusRow {
  readonly component: string
  readonly network: Kernel.Network
  readonly status: string
  readonly detail: string
  readonly updated_at: Date
}

const toReport = (row: StatusRow): Engine.ComponentReport => ({
  component: row.component,
  network: row.network,
  status: row.status,
  detail: row.detail,
  updatedAt: row.updated_at
})

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return Engine.ComponentStatus.of({
    // One row per (component, network): the latest report replaces the previous one.
    report: (report) =>
      sql`
        INSERT INTO worker_status (component, network, status, detail, updated_at)
        VALUES (${report.component}, ${report.network}, ${report.status}, ${report.detail}, ${report.updatedAt})
        ON CONFLICT (component, network) DO UPDATE
        SET status = excluded.status, detail = excluded.detail, updated_at = excluded.updated_at`.pipe(Effect.orDie, Effect.asVoid),
    list: (network) =>
      sql<StatusRow>`
        SELECT component, network, status, detail, updated_at FROM worker_status
        WHERE network = ${network} ORDER BY component COLLATE "C"`.pipe(Effect.orDie, Effect.map((rows) => rows.map(toReport)))
  })
})

export const layer = Layer.effect(Engine.ComponentStatus, make)
