import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber, TestClock } from "effect"
import { loopRestartDelay, restarting } from "./Restarting.js"

describe("restarting", () => {
  it.effect("a loop that fails is started again after the pause, and keeps running", () =>
    Effect.gen(function*() {
      let starts = 0
      // Fails on its first start (a storage error outside its own handling), then runs for good.
      const loop = Effect.suspend(() => (++starts === 1 ? Effect.fail("connection lost") : Effect.never))
      const fiber = yield* Effect.fork(restarting("scanner", "nile", loop))
      yield* TestClock.adjust(0)
      expect(starts).toBe(1)
      yield* TestClock.adjust(loopRestartDelay)
      expect(starts).toBe(2)
      expect(fiber.unsafePoll()).toBeNull()
      yield* Fiber.interrupt(fiber)
    }))

  it.effect("an interruption ends it: the worker is stopping", () =>
    Effect.gen(function*() {
      let starts = 0
      const exit = yield* Effect.exit(restarting("sweeper", "nile", Effect.suspend(() => (++starts, Effect.interrupt))))
      expect(Exit.isInterrupted(exit)).toBe(true)
      expect(starts).toBe(1)
    }))
})
