import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** A sweep task's row and its delegations' rows, as the worker under test left them. */
export const taskAndDelegations = (taskId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.all({
      task: Effect.map(sql<{ status: string; txid: string; energy_path: string | null }>`
        SELECT status, txid, energy_path FROM sweep_tasks WHERE id = ${taskId}`, (r) => r[0]!),
      delegations: sql<{ state: string; delegate_txid: string; reclaim_txid: string | null }>`
        SELECT state, delegate_txid, reclaim_txid FROM energy_delegations WHERE task_id = ${taskId}`
    })).pipe(Effect.orDie)
