import { Clock, Duration, Effect, Ref } from "effect"

/**
 * A token bucket that keeps requests to one node under its rate limit (TronGrid allows 15-30 a
 * second per key and answers 429 beyond): `perSecond` tokens refill continuously, up to
 * `perSecond` held for a burst. Time comes from Effect's Clock, so TestClock drives it in tests.
 */
export interface RequestBudget {
  /** Waits until a request may be sent. */
  readonly take: Effect.Effect<void>
}

/**
 * Each caller reserves the next free slot at once, letting the balance go negative, and then
 * sleeps until its slot: callers are served in arrival order and nobody polls. A caller
 * interrupted while waiting leaves its slot unused, which only errs on the slow side.
 */
export const makeRequestBudget = (perSecond: number): Effect.Effect<RequestBudget> =>
  Effect.gen(function*() {
    const state = yield* Ref.make({ tokens: perSecond, at: yield* Clock.currentTimeMillis })
    const reserve = (now: number) =>
      Ref.modify(state, ({ at, tokens }) => {
        const available = Math.min(perSecond, tokens + ((now - at) * perSecond) / 1000) - 1
        const waitMillis = available >= 0 ? 0 : (-available * 1000) / perSecond
        return [waitMillis, { tokens: available, at: now }] as const
      })
    const take = Clock.currentTimeMillis.pipe(
      Effect.flatMap(reserve),
      Effect.flatMap((waitMillis) => (waitMillis > 0 ? Effect.sleep(Duration.millis(Math.ceil(waitMillis))) : Effect.void))
    )
    return { take }
  })
