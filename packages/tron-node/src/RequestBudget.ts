import { Clock, Duration, Effect, Ref } from "effect"

/**
 * A token bucket that keeps requests to one node under its rate limit (TronGrid allows 15-30 a
 * second per key and answers 429 beyond): `perSecond` tokens refill continuously, up to
 * `perSecond` held for a burst. Time comes from Effect's Clock, so TestClock drives it in tests.
 */
export interface RequestBudget {
  /** Waits until a request may be sent. */
  readonly take: Effect.Effect<void>
  /**
   * Waits until a request that can wait may be sent. Such requests together get at most half
   * the rate, so a burst of them (a balance-sync batch) never stands in front of the requests
   * that follow the chain for long: those find the other half free.
   */
  readonly takeBackground: Effect.Effect<void>
}

/**
 * Each caller reserves the next free slot at once, letting the balance go negative, and then
 * sleeps until its slot: callers are served in arrival order and nobody polls. A caller
 * interrupted while waiting leaves its slot unused, which only errs on the slow side.
 */
const makeBucket = (perSecond: number): Effect.Effect<Effect.Effect<void>> =>
  Effect.gen(function*() {
    const state = yield* Ref.make({ tokens: perSecond, at: yield* Clock.currentTimeMillis })
    const reserve = (now: number) =>
      Ref.modify(state, ({ at, tokens }) => {
        const available = Math.min(perSecond, tokens + ((now - at) * perSecond) / 1000) - 1
        const waitMillis = available >= 0 ? 0 : (-available * 1000) / perSecond
        return [waitMillis, { tokens: available, at: now }] as const
      })
    return Clock.currentTimeMillis.pipe(
      Effect.flatMap(reserve),
      Effect.flatMap((waitMillis) => (waitMillis > 0 ? Effect.sleep(Duration.millis(Math.ceil(waitMillis))) : Effect.void))
    )
  })

/** One node's budget: every request takes from it; those that can wait first pass a lane of half the rate. */
export const makeRequestBudget = (perSecond: number): Effect.Effect<RequestBudget> =>
  Effect.gen(function*() {
    const take = yield* makeBucket(perSecond)
    const lane = yield* makeBucket(perSecond / 2)
    return { take, takeBackground: Effect.zipRight(lane, take) }
  })
