import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, TestClock } from "effect"
import { makeRequestBudget } from "./RequestBudget.js"

describe("RequestBudget", () => {
  it.effect("lets a burst through, then spaces requests at the rate", () =>
    Effect.gen(function*() {
      const budget = yield* makeRequestBudget(2)
      yield* budget.take
      yield* budget.take
      const third = yield* Effect.fork(budget.take)
      const fourth = yield* Effect.fork(budget.take)
      yield* TestClock.adjust("499 millis")
      expect(third.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 millis")
      yield* Fiber.join(third)
      expect(fourth.unsafePoll()).toBeNull()
      yield* TestClock.adjust("500 millis")
      yield* Fiber.join(fourth)
    }))

  it.effect("refills while idle, but never beyond one second's worth", () =>
    Effect.gen(function*() {
      const budget = yield* makeRequestBudget(3)
      for (let i = 0; i < 3; i++) yield* budget.take
      yield* TestClock.adjust("1 hour")
      for (let i = 0; i < 3; i++) yield* budget.take
      const next = yield* Effect.fork(budget.take)
      yield* TestClock.adjust("300 millis")
      expect(next.unsafePoll()).toBeNull()
      yield* TestClock.adjust("34 millis")
      yield* Fiber.join(next)
    }))
  it.effect("requests that can wait get half the rate: one that follows the chain, arriving behind a burst of them, goes at once", () =>
    Effect.gen(function*() {
      const budget = yield* makeRequestBudget(10)
      const waiting = yield* Effect.fork(Effect.all(Array.from({ length: 20 }, () => budget.takeBackground), { concurrency: "unbounded" }))
      // Every one of them has reserved its slot.
      for (let i = 0; i < 50; i++) yield* Effect.yieldNow()
      const urgent = yield* Effect.fork(budget.take)
      yield* Effect.yieldNow()
      expect(urgent.unsafePoll()).not.toBeNull()
      // Five at once, then five a second: the last of the twenty after three seconds.
      yield* TestClock.adjust("2999 millis")
      expect(waiting.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 millis")
      yield* Fiber.join(waiting)
    }))
})
