import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer, TestClock } from "effect"
import { Chain } from "../chain/Chain.js"
import { DelegationLedger } from "../delegation/DelegationLedger.js"
import { DatabaseWaits } from "../engine/DatabaseWaits.js"
import { SweepRepository } from "../sweeps/SweepRepository.js"
import { FeeLedger } from "./FeeLedger.js"
import { feeBookingLoop } from "./FeeBookingLoop.js"

// The statement the pass starts with dies as a storage port does while the primary fails over.
let databaseUp = false
const readOnly = Object.assign(new Error("cannot execute UPDATE in a read-only transaction"), { code: "25006" })
// With nothing to book the pass goes no further than the ledger.
const ports = Layer.mergeAll(
  Layer.succeed(FeeLedger, { unbooked: () => (databaseUp ? Effect.succeed([]) : Effect.die(readOnly)) } as unknown as FeeLedger["Type"]),
  Layer.succeed(Chain, {} as Chain["Type"]),
  Layer.succeed(SweepRepository, {} as SweepRepository["Type"]),
  Layer.succeed(DelegationLedger, {} as DelegationLedger["Type"])
)
const waits = Layer.fresh(DatabaseWaits.layer((error) => (error as { code?: unknown }).code === "25006"))
const waiting = Effect.flatMap(DatabaseWaits, (w) => w.current).pipe(Effect.map((all) => all.map((w) => `${w.component}/${w.network}: ${w.reason}`)))

describe("feeBookingLoop", () => {
  it.effect("a pass that meets the database out of reach makes fee booking wait for it, until a pass reaches it", () =>
    Effect.gen(function*() {
      databaseUp = false
      // The loop keeps running: its own catch-all takes the failure, the next pass comes after the interval.
      const fiber = yield* Effect.fork(feeBookingLoop("nile", "30 seconds"))
      yield* TestClock.adjust(0)
      expect(yield* waiting).toEqual(["fee_booking/nile: cannot execute UPDATE in a read-only transaction"])
      databaseUp = true
      yield* TestClock.adjust("30 seconds")
      expect(yield* waiting).toEqual([])
      yield* Fiber.interrupt(fiber)
    }).pipe(Effect.provide(ports), Effect.provide(waits)))
})
