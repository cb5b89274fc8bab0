import { SqlClient } from "@effect/sql"
import { Delegation, type Kernel, type Sweeps } from "@collector/core"
import { Effect, Layer, Option } from "effect"

interface DelegationRow {
  readonly task_id: string
  readonly network: Kernel.Network
  readonly owner_address: string
  readonly receiver_address: string
  readonly energy: string
  readonly balance: string
  readonly state: Delegation.DelegationState
  readonly delegate_txid: string
  readonly delegate_expiration: Date
  readonly reclaim_txid: string | null
  readonly reclaim_expiration: Date | null
  readonly created_at: Date
  readonly updated_at: Date
}

/** int8 and numeric as text, never JS numbers. */
const columns = `task_id::text AS task_id, network, owner_address, receiver_address, energy::text AS energy, balance::text AS balance,
  state, delegate_txid, delegate_expiration, reclaim_txid, reclaim_expiration, created_at, updated_at`

const toDelegation = (row: DelegationRow): Delegation.EnergyDelegation => ({
  taskId: row.task_id as Sweeps.SweepTaskId,
  network: row.network,
  owner: row.owner_address,
  receiver: row.receiver_address,
  energy: BigInt(row.energy),
  balance: BigInt(row.balance),
  state: row.state,
  delegateTxid: row.delegate_txid,
  delegateExpiration: row.delegate_expiration,
  reclaimTxid: row.reclaim_txid,
  reclaimExpiration: row.reclaim_expiration,
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const cols = sql.unsafe(columns)

  const find = (taskId: Sweeps.SweepTaskId) =>
    sql<DelegationRow>`SELECT ${cols} FROM energy_delegations WHERE task_id = ${taskId}::bigint`.pipe(
      Effect.orDie,
      Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toDelegation))
    )

  return Delegation.DelegationLedger.of({
    // ON CONFLICT DO NOTHING, then the row as stored: of two workers planning one task, one plans and the other is told.
    plan: (d) =>
      Effect.gen(function*() {
        const inserted = yield* sql<DelegationRow>`
          INSERT INTO energy_delegations (task_id, network, owner_address, receiver_address, energy, balance, state, delegate_txid,
            delegate_expiration, reclaim_txid, reclaim_expiration, created_at, updated_at)
          VALUES (${d.taskId}::bigint, ${d.network}, ${d.owner}, ${d.receiver}, ${d.energy.toString()}::numeric, ${d.balance.toString()}::numeric,
            'planned', ${d.delegateTxid}, ${d.delegateExpiration}, ${d.reclaimTxid}, ${d.reclaimExpiration}, ${d.createdAt}, ${d.updatedAt})
          ON CONFLICT (task_id) DO NOTHING
          RETURNING ${cols}`.pipe(Effect.orDie)
        if (inserted[0] !== undefined) return toDelegation(inserted[0])
        const existing = yield* find(d.taskId)
        return yield* Option.match(existing, {
          onNone: () => Effect.dieMessage(`energy delegation of task ${d.taskId} conflicted but is not stored`),
          onSome: (row) => Effect.fail(new Delegation.DelegationExists({ existing: row }))
        })
      }),
    find,
    update: (previous, next) =>
      Effect.gen(function*() {
        const updated = next.taskId !== previous.taskId ? [] : yield* sql<DelegationRow>`
          UPDATE energy_delegations
          SET state = ${next.state}, delegate_txid = ${next.delegateTxid}, delegate_expiration = ${next.delegateExpiration},
              reclaim_txid = ${next.reclaimTxid}, reclaim_expiration = ${next.reclaimExpiration}, updated_at = ${next.updatedAt}
          WHERE task_id = ${previous.taskId}::bigint AND state = ${previous.state} AND delegate_txid = ${previous.delegateTxid}
            AND reclaim_txid IS NOT DISTINCT FROM ${previous.reclaimTxid}::text
          RETURNING ${cols}`.pipe(Effect.orDie)
        if (updated[0] !== undefined) return toDelegation(updated[0])
        return yield* Effect.fail(new Delegation.DelegationMoved({ current: yield* find(previous.taskId) }))
      }),
    // Keys qualified: a bare `task_id` would name the text alias `task_id::text AS task_id` and sort
    // as text (task 1000 before 999), off the energy_delegations_open index's order.
    open: (network, limit) =>
      sql<DelegationRow>`
        SELECT ${cols} FROM energy_delegations d
        WHERE network = ${network} AND state <> 'reclaimed'
        ORDER BY d.created_at, d.task_id LIMIT ${limit}`.pipe(Effect.orDie, Effect.map((rows) => rows.map(toDelegation)))
  })
})

export const layer = Layer.effect(Delegation.DelegationLedger, make)
