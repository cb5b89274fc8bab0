import { Effect } from "effect"

/**
 * What a crash does to a worker's connections: from the moment it dies, every call it makes to
 * the store, the node, the provider or a receiver is cut off (interrupted) before it starts, so
 * the finalizers its fibers run while they are interrupted change nothing outside the process,
 * as with a power cut. A call already running finishes: the store's operations are atomic.
 */
export class PowerGate {
  private alive = true

  get isAlive(): boolean {
    return this.alive
  }

  cut(): void {
    this.alive = false
  }

  readonly guard = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.suspend(() => (this.alive ? effect : Effect.interrupt))

  /** The service with each of its operations behind the gate (methods returning effects, and effects). */
  readonly service = <S extends object>(service: S): S => {
    const gated: Record<string, unknown> = {}
    for (const [name, member] of Object.entries(service)) {
      gated[name] = typeof member === "function"
        ? (...args: Array<unknown>) => {
          const result = (member as (...a: Array<unknown>) => unknown).apply(service, args)
          return Effect.isEffect(result) ? this.guard(result) : result
        }
        : Effect.isEffect(member)
        ? this.guard(member)
        : member
    }
    return gated as S
  }
}
