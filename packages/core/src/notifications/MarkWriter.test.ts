import { describe, expect, it } from "@effect/vitest"
import { Cause, Deferred, Effect, Exit, Fiber, Layer, Scope } from "effect"
import { MemoryDatabase } from "../memory/MemoryDatabase.js"
import * as MemoryDeliveryLedger from "./MemoryDeliveryLedger.js"
import { MemoryStorage } from "../memory/MemoryStorage.js"
import { claimed } from "./DeliverySteps.js"
import * as MemoryStorageFixtures from "../testing/MemoryStorageFixtures.js"
import { outboxEvent, webhookScope } from "../testing/OutboxEvents.js"
import { DeliveryLedger, type HeldAttempt } from "./DeliveryLedger.js"
import { makeMarkWriter } from "./MarkWriter.js"

const storage = MemoryStorageFixtures.layer.pipe(Layer.provideMerge(MemoryStorage))

// The test clock stands at 0: the writer marks at that time, inside the claims' leases.
const now = new Date(0)

/**
 * Events by name, each with attempt 1 started by a claim of "h"; those in `lost` were claimed by
 * another dispatcher instead, so "h" no longer holds them.
 */
const claimedEvents = (names: ReadonlyArray<string>, lost: ReadonlyArray<string> = []) =>
  Effect.gen(function*() {
    const scope = yield* webhookScope("nile", { url: "https://hooks.example.com/in", enabled: true })
    const ids = new Map<string, string>()
    for (const [holder, group] of [["other", lost], ["h", names.filter((n) => !lost.includes(n))]] as const) {
      for (const name of group) ids.set(name, (yield* outboxEvent(scope, now)).id)
      yield* claimed(holder, now, { limit: 100 })
    }
    const attempt = (name: string): HeldAttempt => ({ claim: { holder: "h", eventId: ids.get(name)!, round: 1 }, attempt: 1 })
    const named = (marked: ReadonlyArray<string>) => marked.map((id) => [...ids].find(([, known]) => known === id)![0])
    return { attempt, named }
  })

/** The memory ledger, with each markSending call recorded (its event IDs), or failing as a lost connection would. */
const recordingLedger = (options: { readonly fail?: boolean } = {}) => {
  const calls: Array<ReadonlyArray<string>> = []
  const layer = Layer.effect(
    DeliveryLedger,
    Effect.map(MemoryDeliveryLedger.make, (ledger): DeliveryLedger["Type"] => ({
      ...ledger,
      markSending: (attempts, at) =>
        Effect.suspend(() => {
          calls.push(attempts.map((a) => a.claim.eventId))
          return options.fail === true ? Effect.die(new Error("connection lost")) : ledger.markSending(attempts, at)
        })
    }))
  )
  return { calls, layer }
}

/** Another transaction holds the database until `release`: a statement started meanwhile waits for it. */
const holdDatabase = Effect.gen(function*() {
  const db = yield* MemoryDatabase
  const gate = yield* Deferred.make<void>()
  const holding = yield* Deferred.make<void>()
  yield* Effect.fork(db.transaction(Effect.zipRight(Deferred.succeed(holding, undefined), Deferred.await(gate))))
  yield* Deferred.await(holding)
  return { release: Deferred.succeed(gate, undefined) }
})

describe("makeMarkWriter", () => {
  it.scoped("marks what several callers queue together in one statement and gives each its own held attempts", () =>
    Effect.gen(function*() {
      const { attempt, named } = yield* claimedEvents(["a1", "a2", "b1", "b2", "c1"], ["b2"])
      const { calls, layer } = recordingLedger()
      const writer = yield* Effect.provide(makeMarkWriter, layer)
      const results = yield* Effect.all([
        writer.mark([attempt("a1"), attempt("a2")]),
        writer.mark([attempt("b1"), attempt("b2")]),
        writer.mark([attempt("c1")])
      ], { concurrency: "unbounded" })
      expect(calls.map(named)).toEqual([["a1", "a2", "b1", "b2", "c1"]])
      expect(results.map(named)).toEqual([["a1", "a2"], ["b1"], ["c1"]])
    }).pipe(Effect.provide(storage)))

  it.scoped("those queued while a statement is under way go together in the next one", () =>
    Effect.gen(function*() {
      const { attempt, named } = yield* claimedEvents(["a", "b", "c"])
      const { calls, layer } = recordingLedger()
      const writer = yield* Effect.provide(makeMarkWriter, layer)
      const held = yield* holdDatabase
      const first = yield* Effect.fork(writer.mark([attempt("a")]))
      while (calls.length === 0) yield* Effect.yieldNow()
      const later = yield* Effect.fork(Effect.all([writer.mark([attempt("b")]), writer.mark([attempt("c")])], { concurrency: "unbounded" }))
      yield* Effect.yieldNow()
      yield* held.release
      expect(named(yield* Fiber.join(first))).toEqual(["a"])
      expect((yield* Fiber.join(later)).map(named)).toEqual([["b"], ["c"]])
      expect(calls.map(named)).toEqual([["a"], ["b", "c"]])
    }).pipe(Effect.provide(storage)))

  it.scoped("a statement that fails fails each of its callers", () =>
    Effect.gen(function*() {
      const { attempt } = yield* claimedEvents(["a", "b"])
      const { layer } = recordingLedger({ fail: true })
      const writer = yield* Effect.provide(makeMarkWriter, layer)
      const exits = yield* Effect.all([Effect.exit(writer.mark([attempt("a")])), Effect.exit(writer.mark([attempt("b")]))], { concurrency: "unbounded" })
      for (const exit of exits) {
        expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
      }
    }).pipe(Effect.provide(storage)))

  it.effect("a caller interrupted while its mark is written waits for the statement and learns what was marked", () =>
    Effect.gen(function*() {
      const { attempt, named } = yield* claimedEvents(["a"])
      const { calls, layer } = recordingLedger()
      const scope = yield* Scope.make()
      const writer = yield* Effect.provide(makeMarkWriter, layer).pipe(Scope.extend(scope))
      const held = yield* holdDatabase
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
      yield* held.release
      expect(Exit.isInterrupted(yield* Fiber.join(interrupting))).toBe(true)
      yield* Fiber.join(closing)
      expect(named(marked!)).toEqual(["a"])
    }).pipe(Effect.provide(storage)))

  it.scoped("a caller interrupted while its attempts still wait for their statement is taken out of the queue: nothing of it is marked", () =>
    Effect.gen(function*() {
      const { attempt, named } = yield* claimedEvents(["a", "b", "c"])
      const { calls, layer } = recordingLedger()
      const writer = yield* Effect.provide(makeMarkWriter, layer)
      const held = yield* holdDatabase
      const first = yield* Effect.fork(writer.mark([attempt("a")]))
      while (calls.length === 0) yield* Effect.yieldNow()
      const queued = yield* Effect.fork(Effect.uninterruptible(writer.mark([attempt("b")])))
      const kept = yield* Effect.fork(writer.mark([attempt("c")]))
      yield* Effect.yieldNow()
      expect(Exit.isInterrupted(yield* Fiber.interrupt(queued))).toBe(true)
      yield* held.release
      expect(named(yield* Fiber.join(first))).toEqual(["a"])
      expect(named(yield* Fiber.join(kept))).toEqual(["c"])
      expect(calls.map(named)).toEqual([["a"], ["c"]])
      // b was never marked: it is still withdrawable, its request never went out.
      const ledger = yield* DeliveryLedger
      expect(named(yield* ledger.withdrawAttempts([attempt("b"), attempt("a")]))).toEqual(["b"])
    }).pipe(Effect.provide(storage)))

  it.effect("callers still queued when the writer stops are interrupted with nothing marked", () =>
    Effect.gen(function*() {
      const { attempt, named } = yield* claimedEvents(["a", "b", "c"])
      const { calls, layer } = recordingLedger()
      const scope = yield* Scope.make()
      const writer = yield* Effect.provide(makeMarkWriter, layer).pipe(Scope.extend(scope))
      const held = yield* holdDatabase
      const first = yield* Effect.fork(writer.mark([attempt("a")]))
      while (calls.length === 0) yield* Effect.yieldNow()
      const queued = yield* Effect.fork(writer.mark([attempt("b")]))
      yield* Effect.yieldNow()
      const closing = yield* Effect.fork(Scope.close(scope, Exit.void))
      yield* Effect.yieldNow()
      yield* held.release
      yield* Fiber.join(closing)
      expect(named(yield* Fiber.join(first))).toEqual(["a"])
      const exit = yield* Fiber.await(queued)
      expect(Exit.isInterrupted(exit)).toBe(true)
      expect(calls.map(named)).toEqual([["a"]])
      // After the writer stopped, nothing is queued any more.
      expect(Exit.isInterrupted(yield* Effect.exit(writer.mark([attempt("c")])))).toBe(true)
    }).pipe(Effect.provide(storage)))
})
