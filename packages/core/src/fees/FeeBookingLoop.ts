import { Cause, Duration, Effect, Schedule } from "effect"
import { DatabaseWaits } from "../engine/DatabaseWaits.js"
import { engineComponents } from "../engine/EngineComponents.js"
import type { Network } from "../kernel/Network.js"
import { bookFees } from "./FeeBooking.js"

/** Tasks one pass books at most; a backlog is worked off over the following passes. */
export const feeBookingBatch = 100

/**
 * The engine's fee booking loop: a pass every `interval`, for ever. A pass that fails (the node
 * does not answer) is logged and the next one tries again; nothing is written until an entry is
 * recorded, so a failed pass leaves nothing half done.
 */
export const feeBookingLoop = (network: Network, interval: Duration.DurationInput = Duration.seconds(30)) =>
  bookFees(network, feeBookingBatch).pipe(
    DatabaseWaits.watching(engineComponents.feeBooking, network),
    Effect.catchAllCause((cause) =>
      Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : Effect.logWarning("fee booking pass failed", Cause.pretty(cause))
    ),
    Effect.repeat(Schedule.spaced(interval)),
    Effect.asVoid
  )
