import { Clock, Duration, Effect, Option, type TestClock } from "effect"

/**
 * A realistic start for a TestClock (2026-06-01 UTC): a TestClock starts at 1970-01-01, and
 * blocks and deposits stamped then would look like a bug in the tenant's own code.
 */
export const defaultStartTime = Date.UTC(2026, 5, 1)

// Effect keeps the TestClock in the same slot as the live clock; only the TestClock can be
// moved on, which is what tells them apart.
const isTestClock = (clock: Clock.Clock): clock is TestClock.TestClock =>
  "adjust" in clock && "setTime" in clock && typeof (clock as TestClock.TestClock).adjust === "function"

/** The TestClock this fiber runs on (`it.effect` provides one), or none on the live clock. */
export const testClock: Effect.Effect<Option.Option<TestClock.TestClock>> = Effect.clockWith((clock) =>
  Effect.succeed(isTestClock(clock) ? Option.some(clock) : Option.none())
)

/** Sets a TestClock still at its start (time 0) to `time`; a clock the test has set, or the live clock, is left alone. */
export const startAt = (time: number): Effect.Effect<void> =>
  Effect.flatMap(testClock, Option.match({
    onNone: () => Effect.void,
    onSome: (clock) => Effect.flatMap(clock.currentTimeMillis, (now) => (now === 0 ? clock.setTime(time) : Effect.void))
  }))

/**
 * Moves a TestClock on by `millis`, as the time a block takes passes on a real network; on the
 * live clock time passes by itself and nothing is done.
 */
export const advance = (millis: number): Effect.Effect<void> =>
  Effect.flatMap(testClock, Option.match({ onNone: () => Effect.void, onSome: (clock) => clock.adjust(Duration.millis(millis)) }))
