import { Cause, Duration, Effect } from "effect"
import type { Network } from "../kernel/Network.js"
import { DatabaseWaits } from "./DatabaseWaits.js"

/** Pause before a loop that failed is started again: a database failover or restart takes seconds. */
export const loopRestartDelay = Duration.seconds(5)

/**
 * Runs an engine loop for good: a failure that escaped the loop's own handling (a storage error
 * outside the part of a pass that catches them, as when the primary dies under a lease renewal)
 * is logged and the loop is started again after a pause. The engine runs its loops side by side,
 * where one failing would interrupt all the others and leave the process up with no loop running
 * (the failover test met exactly that). An interruption is passed on: the worker is stopping.
 * A failure that is the database out of reach makes the component wait for it (`DatabaseWaits`)
 * until a pass of the loop started again reaches it.
 */
export const restarting = <E, R>(component: string, network: Network, loop: Effect.Effect<unknown, E, R>): Effect.Effect<never, never, R> =>
  loop.pipe(
    Effect.catchAllCause((cause) =>
      Cause.isInterruptedOnly(cause)
        ? Effect.failCause(cause as Cause.Cause<never>)
        : Effect.flatMap(DatabaseWaits, (waits) => waits.failed(component, network, cause)).pipe(
          Effect.zipRight(Effect.logError(`${component} stopped by a failure; started again in ${Duration.format(loopRestartDelay)}`, cause))
        )
    ),
    // Also after a loop that ended (none should): never a tight loop.
    Effect.zipRight(Effect.sleep(loopRestartDelay)),
    Effect.forever
  )
