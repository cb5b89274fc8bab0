import { Effect, Option } from "effect"

/** Orders remembered, newest kept: about a day of sweeps at a high rate. */
const defaultCapacity = 50_000

/**
 * What this process sent a provider under each of our order numbers, for `find` after a lost
 * answer. Bounded: the oldest entry goes first, and remembering an order again makes it newest.
 */
export class SentOrders<A> {
  private readonly entries = new Map<string, A>()

  constructor(private readonly capacity = defaultCapacity) {}

  get(orderId: string): Option.Option<A> {
    return Option.fromNullable(this.entries.get(orderId))
  }

  /** Stores what `next` makes of the current entry. */
  remember(orderId: string, next: (current: Option.Option<A>) => A): Effect.Effect<void> {
    return Effect.sync(() => {
      const value = next(this.get(orderId))
      this.entries.delete(orderId)
      this.entries.set(orderId, value)
      if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!)
    })
  }
}
