import { Scanning } from "@collector/core"
import { Effect, Layer } from "effect"

/**
 * Planted defect `skip-revert`: the store never finds a confirmed deposit whose block a
 * reorganisation dropped, so every reorganised log is left confirmed.
 */
export const layer = Layer.effect(
  Scanning.DepositBook,
  Effect.map(Scanning.DepositBook, (real) => Scanning.DepositBook.of({ ...real, orphaned: () => Effect.succeed([]) }))
)
