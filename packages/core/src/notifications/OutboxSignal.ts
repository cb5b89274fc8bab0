import { Context, type Duration, Effect, Layer, Queue } from "effect"

/**
 * Wakes the notifier when this engine has just written events that are due at once (the
 * scanner's bookings and reverts), so their first delivery starts then rather than at the
 * notifier's next poll. Events written anywhere else (another worker, the API's redelivery) are
 * found by the poll, as before. A raise with no notifier waiting is kept until the next wait.
 */
export class OutboxSignal extends Context.Tag("@collector/core/OutboxSignal")<OutboxSignal, {
  /** Says that due events were just committed. */
  readonly raise: Effect.Effect<void>
  /** Returns when raised (since the last wait returned) or after `timeout`, whichever is first. */
  readonly wait: (timeout: Duration.DurationInput) => Effect.Effect<void>
}>() {
  static readonly layer = Layer.effect(
    OutboxSignal,
    Effect.map(Queue.sliding<void>(1), (raised) => ({
      raise: Effect.asVoid(Queue.offer(raised, undefined)),
      wait: (timeout: Duration.DurationInput) => Effect.race(Queue.take(raised), Effect.sleep(timeout))
    }))
  )
}
