import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Ref } from "effect"
import { processOnce } from "./processOnce.js"
import { makeMemoryWebhookEventStore, WebhookEventStore } from "./WebhookEventStore.js"

const key = { appId: "1000001", eventId: "7001" }

const withStore = <A, E>(effect: Effect.Effect<A, E, WebhookEventStore>) => Effect.provideService(effect, WebhookEventStore, makeMemoryWebhookEventStore())

describe("processOnce", () => {
  it.effect("runs an event once and answers Duplicate afterwards", () =>
    withStore(Effect.gen(function*() {
      const runs = yield* Ref.make(0)
      const first = yield* processOnce(key, Ref.updateAndGet(runs, (n) => n + 1))
      const second = yield* processOnce(key, Ref.updateAndGet(runs, (n) => n + 1))
      expect(first).toEqual({ _tag: "Processed", value: 1 })
      expect(second).toEqual({ _tag: "Duplicate" })
      expect(yield* Ref.get(runs)).toBe(1)
    })))

  it.effect("keys by app as well as event ID", () =>
    withStore(Effect.gen(function*() {
      yield* processOnce(key, Effect.void)
      expect(yield* processOnce({ appId: "1000002", eventId: "7001" }, Effect.void)).toMatchObject({ _tag: "Processed" })
      expect(yield* processOnce({ appId: "1000001", eventId: "7002" }, Effect.void)).toMatchObject({ _tag: "Processed" })
    })))

  it.effect("releases the claim when processing fails, so a retry books the event", () =>
    withStore(Effect.gen(function*() {
      const failed = yield* Effect.flip(processOnce(key, Effect.fail("database down")))
      expect(failed).toBe("database down")
      expect(yield* processOnce(key, Effect.succeed("booked"))).toEqual({ _tag: "Processed", value: "booked" })
    })))

  it.effect("releases the claim when processing is interrupted", () =>
    withStore(Effect.gen(function*() {
      const started = yield* Deferred.make<void>()
      const fiber = yield* Effect.fork(processOnce(key, Effect.zipRight(Deferred.succeed(started, undefined), Effect.never)))
      yield* Deferred.await(started)
      yield* Fiber.interrupt(fiber)
      expect(yield* processOnce(key, Effect.succeed(1))).toEqual({ _tag: "Processed", value: 1 })
    })))

  it.effect("of concurrent claims of one event exactly one processes; the others see it in progress, then processed", () =>
    withStore(Effect.gen(function*() {
      const release = yield* Deferred.make<void>()
      const runs = yield* Ref.make(0)
      const attempt = processOnce(key, Effect.zipRight(Ref.update(runs, (n) => n + 1), Deferred.await(release)))
      const fibers = yield* Effect.forEach(Array.from({ length: 8 }), () => Effect.fork(attempt))
      // Wait until every loser has its answer while the winner is still parked on `release`.
      while ((yield* Effect.forEach(fibers, Fiber.poll)).filter((exit) => exit._tag === "Some").length < 7) yield* Effect.yieldNow()
      yield* Deferred.succeed(release, undefined)
      const results = yield* Fiber.joinAll(fibers)
      expect(results.filter((r) => r._tag === "Processed")).toHaveLength(1)
      expect(results.filter((r) => r._tag === "InProgress")).toHaveLength(7)
      expect(yield* Ref.get(runs)).toBe(1)
      expect(yield* processOnce(key, Ref.update(runs, (n) => n + 1))).toEqual({ _tag: "Duplicate" })
    })))
})
