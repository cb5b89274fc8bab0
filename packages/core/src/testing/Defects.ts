import { Cause, Effect, Exit } from "effect"

/** Whether `effect` ends in a defect (a storage failure, such as a violated constraint), not a typed error. */
export const dies = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<boolean, never, R> =>
  Effect.map(Effect.exit(effect), (exit) => Exit.isFailure(exit) && Cause.isDie(exit.cause))
