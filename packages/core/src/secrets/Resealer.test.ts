import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Layer } from "effect"
import { MemoryTestStorage } from "../testing/MemoryTestStorage.js"
import * as TestSecretBox from "../testing/TestSecretBox.js"
import { Resealer } from "./Resealer.js"

// The rotation itself, with real master keys, is the reseal contract's (packages/engine-tests and
// apps/cli): the batch bounds are the Resealer's own and need only some box.
describe("Resealer", () => {
  it.effect("refuses a batch size outside 1 to 10,000 instead of walking nothing", () =>
    Effect.gen(function*() {
      const resealer = yield* Resealer
      for (const batchSize of [0, -1, 1.5, 10_001]) {
        const exit = yield* Effect.exit(resealer.reseal({ batchSize }))
        expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
      }
      expect((yield* resealer.reseal({ batchSize: 10_000 })).resealed).toBe(0)
    }).pipe(Effect.provide(Resealer.layer.pipe(Layer.provideMerge(TestSecretBox.layer()), Layer.provideMerge(MemoryTestStorage)))))
})
