import { Clock, Duration, Effect, type Scheduler } from "effect"
import type { PendingWork } from "./PendingWork.js"

interface Sleeper {
  readonly at: number
  readonly order: number
  readonly wake: () => void
}

/**
 * Time and scheduling of a simulated run, in the run's own hands. Fibers are scheduled on
 * microtasks only (never a timer), so once a `setImmediate` comes round every fiber is done or
 * waiting; the clock moves only when the driver says, waking the sleepers due in time order.
 * Nothing depends on the wall clock or the machine's speed: the same run replays exactly, and a
 * simulated hour costs only the work done in it.
 */
export class VirtualTime {
  private now: number
  private sleepers: Array<Sleeper> = []
  private issued = 0

  /** `pending`: work outside the fibers (a database) that has to be done before the run counts as quiet. */
  constructor(start: number, private readonly pending?: PendingWork) {
    this.now = start
  }

  readonly clock: Clock.Clock = {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: () => this.now,
    currentTimeMillis: Effect.sync(() => this.now),
    unsafeCurrentTimeNanos: () => BigInt(this.now) * 1_000_000n,
    currentTimeNanos: Effect.sync(() => BigInt(this.now) * 1_000_000n),
    sleep: (duration) =>
      Effect.async<void>((resume) => {
        // Whole milliseconds, as a real clock reads: a jittered retry delay must not make the time fractional.
        const sleeper: Sleeper = { at: this.now + Math.ceil(Duration.toMillis(duration)), order: this.issued++, wake: () => resume(Effect.void) }
        this.sleepers.push(sleeper)
        return Effect.sync(() => {
          this.sleepers = this.sleepers.filter((s) => s !== sleeper)
        })
      })
  }

  /** Runs every scheduled task on a microtask, yielding a fiber after a long run of operations. */
  readonly scheduler: Scheduler.Scheduler = {
    scheduleTask: (task) => queueMicrotask(task),
    shouldYield: (fiber) => (fiber.currentOpCount > 2048 ? 0 : false)
  }

  get millis(): number {
    return this.now
  }

  /** Lets every fiber run until all are done or asleep (and the pending work is done). */
  readonly settle: Effect.Effect<void> = Effect.promise(async () => {
    do await new Promise<void>((done) => setImmediate(done))
    while (this.pending !== undefined && (await this.pending.drain()))
  })

  /** Moves the clock to `until`, waking each sleeper due on the way at its own time, in order. */
  readonly advanceTo = (until: number) =>
    Effect.gen(this, function*() {
      yield* this.settle
      while (true) {
        const next = this.sleepers.reduce<Sleeper | undefined>(
          (best, s) => (best === undefined || s.at < best.at || (s.at === best.at && s.order < best.order) ? s : best),
          undefined
        )
        if (next === undefined || next.at > until) break
        this.sleepers = this.sleepers.filter((s) => s !== next)
        if (next.at > this.now) this.now = next.at
        next.wake()
        yield* this.settle
      }
      if (until > this.now) this.now = until
    })

  readonly advance = (duration: Duration.DurationInput) => Effect.suspend(() => this.advanceTo(this.now + Duration.toMillis(Duration.decode(duration))))
}
