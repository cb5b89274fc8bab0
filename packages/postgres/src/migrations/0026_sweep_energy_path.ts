import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * How a sweep's energy is paid, as the waterfall chose it at preparation (`energy_path`), and the
 * reason the tenant reads (`fee_reason`). Null until a task is prepared, so the rows of tasks
 * made before this migration stay valid as they are.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE sweep_tasks
      ADD COLUMN energy_path text CHECK (energy_path IN ('own', 'delegated', 'rented', 'burn')),
      ADD COLUMN fee_reason text`
})
