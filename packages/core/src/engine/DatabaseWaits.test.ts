import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Fiber, Layer, Metric, TestClock } from "effect"
import { databaseWaiting } from "./DatabaseWaitMetrics.js"
import { apiComponent, DatabaseWaits } from "./DatabaseWaits.js"
import { loopRestartDelay, restarting } from "./Restarting.js"

// What node-postgres throws when the server is gone, as the storage ports die with it (wrapped once).
const refused = () => Object.assign(new Error("Failed to execute statement"), { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }) })
// The classifier the reference server passes is the driver's; this one knows the same code.
const byCode = (error: unknown): boolean => {
  for (let current = error; typeof current === "object" && current !== null; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === "ECONNREFUSED") return true
  }
  return false
}
const waitsLayer = Layer.fresh(DatabaseWaits.layer(byCode))
const current = Effect.flatMap(DatabaseWaits, (waits) => waits.current)
const at = (seconds: number) => new Date(seconds * 1000).toISOString()

describe("DatabaseWaits", () => {
  it.effect("a pass that meets the database out of reach waits from then; one that reaches it waits no more", () =>
    Effect.gen(function*() {
      const watched = DatabaseWaits.watching("sweeper", "nile")
      yield* TestClock.adjust("10 seconds")
      yield* Effect.exit(watched(Effect.die(refused())))
      yield* TestClock.adjust("5 seconds")
      // Still away: the wait keeps its beginning.
      yield* Effect.exit(watched(Effect.die(refused())))
      expect(yield* current).toEqual([
        { component: "sweeper", network: "nile", since: new Date(at(10)), reason: "Failed to execute statement: connect ECONNREFUSED 127.0.0.1:5432" }
      ])
      const gauge = Effect.map(Metric.value(databaseWaiting("sweeper", "nile")), (state) => state.value)
      expect(yield* gauge).toBe(1)
      expect(yield* watched(Effect.succeed(3))).toBe(3)
      expect(yield* current).toEqual([])
      expect(yield* gauge).toBe(0)
    }).pipe(Effect.provide(waitsLayer)))

  it.effect("a failure that is not the database (a bug, a node) records nothing, nor does an interruption", () =>
    Effect.gen(function*() {
      const watched = DatabaseWaits.watching("scanner", "nile")
      yield* Effect.exit(watched(Effect.die(new Error("undefined is not a function"))))
      yield* Effect.exit(watched(Effect.fail({ _tag: "ChainUnavailable", reason: "HTTP 503" })))
      yield* Effect.exit(watched(Effect.interrupt))
      expect(yield* current).toEqual([])
    }).pipe(Effect.provide(waitsLayer)))

  it.effect("each component and network waits on its own; the API waits without a network", () =>
    Effect.gen(function*() {
      const waits = yield* DatabaseWaits
      yield* Effect.exit(DatabaseWaits.watching("notifier", "nile")(Effect.die(refused())))
      yield* Effect.exit(DatabaseWaits.watching("notifier", "main")(Effect.die(refused())))
      yield* waits.failed(apiComponent, undefined, Cause.die(refused()))
      yield* DatabaseWaits.watching("notifier", "main")(Effect.void)
      expect((yield* current).map((w) => `${w.component}/${w.network ?? "-"}`)).toEqual(["notifier/nile", "api/-"])
    }).pipe(Effect.provide(waitsLayer)))

  it.effect("a loop stopped by the database out of reach waits for it until a pass reaches it", () =>
    Effect.gen(function*() {
      let starts = 0
      // Dies outside its own handling on its first start (the lease renewal), then passes.
      const loop = Effect.suspend(() =>
        ++starts === 1 ? Effect.die(refused()) : Effect.zipRight(DatabaseWaits.watching("scanner", "nile")(Effect.void), Effect.never)
      )
      const fiber = yield* Effect.fork(restarting("scanner", "nile", loop))
      yield* TestClock.adjust(0)
      expect((yield* current).map((w) => w.component)).toEqual(["scanner"])
      yield* TestClock.adjust(loopRestartDelay)
      expect(starts).toBe(2)
      expect(yield* current).toEqual([])
      yield* Fiber.interrupt(fiber)
    }).pipe(Effect.provide(waitsLayer)))

  it.effect("without a layer nothing is recorded (an embedder on the memory store)", () =>
    Effect.gen(function*() {
      yield* Effect.exit(DatabaseWaits.watching("sweeper", "nile")(Effect.die(refused())))
      expect(yield* current).toEqual([])
    }))
})
