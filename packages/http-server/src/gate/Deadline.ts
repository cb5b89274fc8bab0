import { Effect, Fiber, Option } from "effect"

/**
 * Runs `effect` in its own interruptible fiber and interrupts it when `millis` pass: `None`
 * then means the deadline won. A plain timer per request instead of `Effect.timeout`, whose
 * race of two fibers cost about a quarter of a small request's time. The fiber is needed
 * because the server runs middleware uninterruptibly; interruption also rolls back any open
 * transaction of the request.
 */
export const withDeadline = <A, E, R>(effect: Effect.Effect<A, E, R>, millis: number) =>
  Effect.gen(function*() {
    const fiber = yield* Effect.fork(Effect.interruptible(effect))
    let expired = false
    const timer = setTimeout(() => {
      expired = true
      fiber.unsafeInterruptAsFork(fiber.id())
    }, millis)
    const exit = yield* Fiber.await(fiber).pipe(Effect.ensuring(Effect.sync(() => clearTimeout(timer))))
    if (expired && exit._tag === "Failure") return Option.none<A>()
    return Option.some(yield* exit)
  })
