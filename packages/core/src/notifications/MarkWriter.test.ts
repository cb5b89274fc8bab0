import { describe, expect, it } from "@effect/vitest"
import { Cause, Deferred, Effect, Exit, Fiber, Layer, Scope } from "effect"
import { DeliveryLedger, type HeldAttempt } from "./DeliveryLedger"
import { makeMarkWriter } from "./MarkWriter"

const attempt = (eventId: string): HeldAttempt => ({ claim: { holder: "h", eventId, round: 1 }, attempt: 1 })

/** A ledger whose markSending holds every ID not in `lost`, records each call and can be held back or broken. */
const fakeLedger = (options: { lost?: ReadonlyArray<string>; gate?: Deferred.Deferred<void>; fail?: boolean } = {}) => {
  const calls: Array<ReadonlyArray<string>> = []
  const ledger = {
    markSending: (attempts: ReadonlyArray<HeldAttempt>) =>
      Effect.suspend(() => {
        calls.push(attempts.map((a) => a.claim.eventId))
        const write = options.fail === true
          ? Effect.die(new Error("connection lost"))
          : Effect.succeed(attempts.map((a) => a.claim.eventId).filter((id) => !(options.lost ?? []).includes(id)))
        return options.gate === undefined ? write : Effect.zipRight(Deferred.await(options.gate), write)
      })
  } as unknown as DeliveryLedger["Type"]
  return { calls, layer: Layer.succeed(DeliveryLedger, ledger) }
}

describe("makeMarkWriter", () => {
  it.scoped("marks what several callers queue together in one statement and gives each its own held attempts", () =>
    Effect.gen(function*() {
      const { calls, layer } = fakeLedger({ lost: ["b2"] })
      const writer = yield* Effect.provide(makeMarkWriter, layer)
      const results = yield* Effect.all([
        writer.mark([attempt("a1"), attempt("a2")]),
        writer.mark([attempt("b1"), attempt("b2")]),
        writer.mark([attempt("c1")])
      ], { concurrency: "unbounded" })
      expect(calls).toEqual([["a1", "a2", "b1", "b2", "c1"]])
      expect(results).toEqual([["a1", "a2"], ["b1"], ["c1"]])
    }))

  it.scoped("those queued while a statement is under way go together in the next one", () =>
    Effect.gen(function*() {
      const gate = yield* Deferred.make<void>()
      const { calls, layer } = fakeLedger({ gate })
      const writer = yield* Effect.provide(makeMarkWriter, layer)
      const first = yield* Effect.fork(writer.mark([attempt("a")]))
      while (calls.length === 0) yield* Effect.yieldNow()
      const later = yield* Effect.fork(Effect.all([writer.mark([attempt("b")]), writer.mark([attempt("c")])], { concurrency: "unbounded" }))
      yield* Effect.yieldNow()
      yield* Deferred.succeed(gate, undefined)
      expect(yield* Fiber.join(first)).toEqual(["a"])
      expect(yield* Fiber.join(later)).toEqual([["b"], ["c"]])
      expect(calls).toEqual([["a"], ["b", "c"]])
    }))

  it.scoped("a statement that fails fails each of its callers", () =>
    Effect.gen(function*() {
      const { layer } = fakeLedger({ fail: true })
      const writer = yield* Effect.provide(makeMarkWriter, layer)
      const exits = yield* Effect.all([Effect.exit(writer.mark([attempt("a")])), Effect.exit(writer.mark([attempt("b")]))], { concurrency: "unbounded" })
      for (const exit of exits) {
        expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
      }
    }))

  it.effect("a caller interrupted while its mark is written waits for the statement and learns what was marked", () =>
    Effect.gen(function*() {
      const gate = yield* Deferred.make<void>()
      const { calls, layer } = fakeLedger({ gate })
      const scope = yield* Scope.make()
      const writer = yield* Effect.provide(makeMarkWriter, layer).pipe(Scope.extend(scope))
      // As the dispatcher does: what was marked is taken in, in the same uninterruptible step.
      let marked: ReadonlyArray<string> | undefined
      const marking = yield* Effect.fork(Effect.uninterruptible(Effect.tap(writer.mark([attempt("a")]), (ids) => Effect.sync(() => (marked = ids)))))
      while (calls.length === 0) yield* Effect.yieldNow()
      // Interrupting the caller and closing the writer both wait for the statement under way.
      const interrupting = yield* Effect.fork(Fiber.interrupt(marking))
      const closing = yield* Effect.fork(Scope.close(scope, Exit.void))
      yield* Effect.yieldNow()
      expect(interrupting.unsafePoll()).toBeNull()
      expect(closing.unsafePoll()).toBeNull()
      yield* Deferred.succeed(gate, undefined)
      expect(Exit.isInterrupted(yield* Fiber.join(interrupting))).toBe(true)
      yield* Fiber.join(closing)
      expect(marked).toEqual(["a"])
    }))

  it.scoped("a caller interrupted while its attempts still wait for their statement is taken out of the queue: nothing of it is marked", () =>
    Effect.gen(function*() {
      const gate = yield* Deferred.make<void>()
      const { calls, layer } = fakeLedger({ gate })
      const writer = yield* Effect.provide(makeMarkWriter, layer)
      const first = yield* Effect.fork(writer.mark([attempt("a")]))
      while (calls.length === 0) yield* Effect.yieldNow()
      const queued = yield* Effect.fork(Effect.uninterruptible(writer.mark([attempt("b")])))
      const kept = yield* Effect.fork(writer.mark([attempt("c")]))
      yield* Effect.yieldNow()
      expect(Exit.isInterrupted(yield* Fiber.interrupt(queued))).toBe(true)
      yield* Deferred.succeed(gate, undefined)
      expect(yield* Fiber.join(first)).toEqual(["a"])
      expect(yield* Fiber.join(kept)).toEqual(["c"])
      expect(calls).toEqual([["a"], ["c"]])
    }))

  it.effect("callers still queued when the writer stops are interrupted with nothing marked", () =>
    Effect.gen(function*() {
      const gate = yield* Deferred.make<void>()
      const { calls, layer } = fakeLedger({ gate })
      const scope = yield* Scope.make()
      const writer = yield* Effect.provide(makeMarkWriter, layer).pipe(Scope.extend(scope))
      const first = yield* Effect.fork(writer.mark([attempt("a")]))
      while (calls.length === 0) yield* Effect.yieldNow()
      const queued = yield* Effect.fork(writer.mark([attempt("b")]))
      yield* Effect.yieldNow()
      const closing = yield* Effect.fork(Scope.close(scope, Exit.void))
      yield* Effect.yieldNow()
      yield* Deferred.succeed(gate, undefined)
      yield* Fiber.join(closing)
      expect(yield* Fiber.join(first)).toEqual(["a"])
      const exit = yield* Fiber.await(queued)
      expect(Exit.isInterrupted(exit)).toBe(true)
      expect(calls).toEqual([["a"]])
      // After the writer stopped, nothing is queued any more.
      expect(Exit.isInterrupted(yield* Effect.exit(writer.mark([attempt("c")])))).toBe(true)
    }))
})
