import { Scanning } from "@collector/core"
import { Effect, Layer } from "effect"

/**
 * Planted defect `network-rule` (the deposit book): the unbooked logs carry the confirmation rule
 * of the first tenant the store finds on their network (the join on the rule forgot the tenant),
 * so a tenant's deposits are booked under another tenant's rule, earlier than its own allows.
 */
export const layer = Layer.effect(
  Scanning.DepositBook,
  Effect.map(Scanning.DepositBook, (real) =>
    Scanning.DepositBook.of({
      ...real,
      pending: (network) =>
        Effect.map(real.pending(network), (logs) => {
          const first = logs[0]
          return first === undefined ? logs : logs.map((log) => ({ ...log, rule: first.rule }))
        })
    }))
)
