import { AesGcmSecretBox, MasterKey, MasterKeyring, NodeEntropy } from "@collector/vault"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Layer } from "effect"
import { randomBytes } from "node:crypto"
import { MemoryTestStorage } from "../testing/MemoryTestStorage.js"
import { resealContract } from "../testing/ResealContract.js"
import { Resealer } from "./Resealer.js"

const [a, b, c] = [0, 1, 2].map(() => MasterKey.unsafeMake(randomBytes(32))) as [MasterKey, MasterKey, MasterKey]
const box = (current: MasterKey, previous: ReadonlyArray<MasterKey> = []) =>
  AesGcmSecretBox.layer.pipe(Layer.provide(MasterKeyring.layer({ current, previous })), Layer.provide(NodeEntropy.layer))

resealContract("memory", MemoryTestStorage, { old: box(a), rotated: box(b, [a]), retired: box(b), stranger: box(c) })

describe("Resealer", () => {
  it.effect("refuses a batch size outside 1 to 10,000 instead of walking nothing", () =>
    Effect.gen(function*() {
      const resealer = yield* Resealer
      for (const batchSize of [0, -1, 1.5, 10_001]) {
        const exit = yield* Effect.exit(resealer.reseal({ batchSize }))
        expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
      }
      expect((yield* resealer.reseal({ batchSize: 10_000 })).resealed).toBe(0)
    }).pipe(Effect.provide(Resealer.layer.pipe(Layer.provideMerge(box(a)), Layer.provideMerge(MemoryTestStorage)))))
})
