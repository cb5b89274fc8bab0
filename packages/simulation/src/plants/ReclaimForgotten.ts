import { Delegation, type Sweeps } from "@collector/core"
import { Effect, Layer } from "effect"

/**
 * Planted defect `reclaim-forgotten`: the reclaim loop never sees the first delegation that
 * reached the chain (the ledger's `open` leaves it out from then on, as a query with a wrong
 * state filter would), so the stake lent to that finished task is never taken back.
 */
export const layer = Layer.effect(
  Delegation.DelegationLedger,
  Effect.map(Delegation.DelegationLedger, (real) => {
    let forgotten: Sweeps.SweepTaskId | undefined
    return Delegation.DelegationLedger.of({
      ...real,
      open: (network, limit) =>
        Effect.map(real.open(network, limit), (rows) => {
          forgotten ??= rows.find((row) => row.state === "confirmed")?.taskId
          return rows.filter((row) => row.taskId !== forgotten)
        })
    })
  })
)
