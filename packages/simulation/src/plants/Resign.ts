import { type SweepTask, SweepRepository } from "@collector/core"
import { Effect, Layer } from "effect"

/**
 * Planted defect `resign`: the first task claimed after its broadcast is handed to the sweeper
 * as `ready` with no transaction, as a store that lost the signed transaction would return it,
 * until the sweeper has signed it again with a new transaction.
 */
export const layer = Layer.effect(
  SweepRepository,
  Effect.map(SweepRepository, (real) => {
    let target: { readonly id: string; readonly txid: string } | undefined
    const forget = (task: SweepTask): SweepTask => {
      if (task.status !== "broadcast" || task.transaction === null) return task
      target ??= { id: task.id, txid: task.transaction.txid }
      if (task.id !== target.id || task.transaction.txid !== target.txid) return task
      return { ...task, status: "ready", transaction: null }
    }
    return SweepRepository.of({
      ...real,
      claim: (network, worker, now, until, limit) => Effect.map(real.claim(network, worker, now, until, limit), (tasks) => tasks.map(forget))
    })
  })
)
