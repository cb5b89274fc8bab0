import { describe, expect, it } from "@effect/vitest"
import { type Duration, Effect, Fiber, TestClock } from "effect"
import { OutboxSignal } from "./OutboxSignal.js"

const waitFor = (timeout: Duration.DurationInput) =>
  Effect.flatMap(OutboxSignal, (signal) => Effect.fork(signal.wait(timeout)))

describe("OutboxSignal", () => {
  it.effect("a wait ends when raised, before its timeout", () =>
    Effect.gen(function*() {
      const signal = yield* OutboxSignal
      const waiting = yield* waitFor("1 minute")
      yield* TestClock.adjust("1 second")
      expect(waiting.unsafePoll()).toBeNull()
      yield* signal.raise
      yield* Fiber.join(waiting)
    }).pipe(Effect.provide(OutboxSignal.layer)))

  it.effect("a raise with nobody waiting ends the next wait at once, and only that one", () =>
    Effect.gen(function*() {
      const signal = yield* OutboxSignal
      yield* signal.raise
      yield* signal.raise
      yield* Fiber.join(yield* waitFor("1 minute"))
      const second = yield* waitFor("1 minute")
      yield* TestClock.adjust("30 seconds")
      expect(second.unsafePoll()).toBeNull()
      yield* TestClock.adjust("30 seconds")
      yield* Fiber.join(second)
    }).pipe(Effect.provide(OutboxSignal.layer)))
})
