import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Ref } from "effect"
import { applyDepositRevision, decideDepositRevision } from "./applyDepositRevision.js"
import { DepositRevisionStore, makeMemoryDepositRevisionStore } from "./DepositRevisionStore.js"
import { revisionDecision } from "./RevisionDecision.js"
import { sampleDeposit } from "./TestDeliveries.js"

const withStore = <A, E>(effect: Effect.Effect<A, E, DepositRevisionStore>) => Effect.provideService(effect, DepositRevisionStore, makeMemoryDepositRevisionStore())

describe("deposit revision rule", () => {
  it("applies a first or higher revision and acknowledges an equal or older one", () => {
    expect(revisionDecision(undefined, 1)).toBe("apply")
    expect(revisionDecision(1, 2)).toBe("apply")
    expect(revisionDecision(2, 2)).toBe("acknowledge")
    expect(revisionDecision(3, 2)).toBe("acknowledge")
  })

  it.effect("books revision 1, then 3, and acknowledges a late 2 and a repeated 3 without booking them", () =>
    withStore(Effect.gen(function*() {
      const booked = yield* Ref.make<Array<number>>([])
      const apply = (revision: number) => applyDepositRevision(sampleDeposit({ revision }), Ref.update(booked, (list) => [...list, revision]))
      expect(yield* apply(1)).toMatchObject({ _tag: "Applied" })
      expect(yield* apply(3)).toMatchObject({ _tag: "Applied" })
      expect(yield* apply(2)).toEqual({ _tag: "Acknowledged", highestBooked: 3 })
      expect(yield* apply(3)).toEqual({ _tag: "Acknowledged", highestBooked: 3 })
      expect(yield* Ref.get(booked)).toEqual([1, 3])
      expect(yield* decideDepositRevision({ id: "501", revision: 3 })).toBe("acknowledge")
      expect(yield* decideDepositRevision({ id: "501", revision: 4 })).toBe("apply")
      expect(yield* decideDepositRevision({ id: "502", revision: 1 })).toBe("apply")
    })))

  it.effect("treats a query result and a notification of the same revision as one booking", () =>
    withStore(Effect.gen(function*() {
      const queried = sampleDeposit({ revision: 2 }) // as returned by deposits.getDeposit
      const notified = sampleDeposit({ revision: 2 }) // the same state, decrypted from a webhook
      expect(yield* applyDepositRevision(queried, Effect.void)).toMatchObject({ _tag: "Applied" })
      expect(yield* applyDepositRevision(notified, Effect.die("must not book twice"))).toMatchObject({ _tag: "Acknowledged" })
    })))

  it.effect("keeps the old revision when booking fails, so the retry applies", () =>
    withStore(Effect.gen(function*() {
      expect(yield* Effect.flip(applyDepositRevision(sampleDeposit({ revision: 1 }), Effect.fail("ledger down")))).toBe("ledger down")
      expect(yield* decideDepositRevision({ id: "501", revision: 1 })).toBe("apply")
      expect(yield* applyDepositRevision(sampleDeposit({ revision: 1 }), Effect.succeed("ok"))).toEqual({ _tag: "Applied", value: "ok" })
    })))

  it.effect("books one deposit's concurrent revisions one at a time, never an older one after a newer", () =>
    withStore(Effect.gen(function*() {
      const gate = yield* Deferred.make<void>()
      const booked = yield* Ref.make<Array<number>>([])
      const entered = yield* Deferred.make<void>()
      const book = (revision: number) =>
        Deferred.succeed(entered, undefined).pipe(Effect.zipRight(Deferred.await(gate)), Effect.zipRight(Ref.update(booked, (list) => [...list, revision])))
      const newer = yield* Effect.fork(applyDepositRevision(sampleDeposit({ revision: 3 }), book(3)))
      // Revision 3 is inside its booking (holding the deposit) before 2 and a repeated 3 arrive.
      yield* Deferred.await(entered)
      const older = yield* Effect.fork(applyDepositRevision(sampleDeposit({ revision: 2 }), book(2)))
      const again = yield* Effect.fork(applyDepositRevision(sampleDeposit({ revision: 3 }), book(3)))
      yield* Deferred.succeed(gate, undefined)
      expect(yield* Fiber.join(newer)).toMatchObject({ _tag: "Applied" })
      expect(yield* Fiber.join(older)).toEqual({ _tag: "Acknowledged", highestBooked: 3 })
      expect(yield* Fiber.join(again)).toEqual({ _tag: "Acknowledged", highestBooked: 3 })
      expect(yield* Ref.get(booked)).toEqual([3])
    })))
})
