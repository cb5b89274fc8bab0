import { Memory, Sweeps } from "@collector/core"
import { Effect, Layer } from "effect"

/**
 * Planted defect `resign`: the first task claimed while it holds a transaction (signed, broadcast
 * or unknown) is handed to the sweeper as `ready` with no transaction (as a store that lost the signed transaction would return it), so
 * the sweeper signs it again, and the store takes whatever transaction the task is then saved
 * with (as one without the trigger that refuses to replace a stored transaction would).
 */
const holdsTransaction: ReadonlyArray<Sweeps.SweepTask["status"]> = ["signed", "broadcast", "unknown"]

export const layer = Layer.effect(
  Sweeps.SweepRepository,
  Effect.gen(function*() {
    const real = yield* Sweeps.SweepRepository
    const db = yield* Memory.MemoryDatabase
    const rows = db.table(Memory.MemoryTables.sweepTasks)
    let target: { readonly id: string; readonly txid: string } | undefined
    const forget = (task: Sweeps.SweepTask): Sweeps.SweepTask => {
      if (!holdsTransaction.includes(task.status) || task.transaction === null) return task
      target ??= { id: task.id, txid: task.transaction.txid }
      if (task.id !== target.id || task.transaction.txid !== target.txid) return task
      return { ...task, status: "ready", transaction: null }
    }
    /** Writes the task's transaction over the stored one, unguarded; the real write then finds nothing replaced. */
    const unguarded = <A>(task: Sweeps.SweepTask, write: Effect.Effect<A>): Effect.Effect<A> =>
      task.id !== target?.id
        ? write
        : db.transaction(Effect.zipRight(
          db.atomically(() => {
            const row = rows.get(task.id)
            if (row !== undefined && row.transaction?.txid !== task.transaction?.txid) rows.put(task.id, { ...row, transaction: task.transaction })
          }),
          write
        ))
    return Sweeps.SweepRepository.of({
      ...real,
      claim: (network, worker, now, until, limit) => Effect.map(real.claim(network, worker, now, until, limit), (tasks) => tasks.map(forget)),
      save: (task, worker) => unguarded(task, real.save(task, worker)),
      finish: (outcome, worker) => unguarded(outcome.task, real.finish(outcome, worker))
    })
  })
)
