import { Kernel } from "@collector/core"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as NodeEntropy from "./NodeEntropy.js"

describe("NodeEntropy", () => {
  it.effect("returns the requested number of fresh random bytes", () =>
    Effect.gen(function*() {
      const entropy = yield* Kernel.Entropy
      const a = yield* entropy.bytes(32)
      const b = yield* entropy.bytes(32)
      expect(a.length).toBe(32)
      expect(a).not.toEqual(b)
      expect(a.buffer.byteLength).toBe(32)
      expect((yield* entropy.bytes(0)).length).toBe(0)
    }).pipe(Effect.provide(NodeEntropy.layer)))
})
