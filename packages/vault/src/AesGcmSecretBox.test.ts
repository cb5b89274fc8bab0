import { randomBytes } from "node:crypto"
import { Entropy, SecretBox, SecretBoxError } from "@collector/core"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as AesGcmSecretBox from "./AesGcmSecretBox.js"
import { MasterKey } from "./MasterKey.js"
import * as NodeEntropy from "./NodeEntropy.js"
import { MasterKeyring, type MasterKeys } from "./MasterKeyring.js"

const newKey = () => MasterKey.unsafeMake(randomBytes(32))
const boxLayer = (keys: MasterKeys) => AesGcmSecretBox.layer.pipe(Layer.provide(MasterKeyring.layer(keys)), Layer.provide(NodeEntropy.layer))
const withKeys = (keys: MasterKeys) => <A, E>(self: Effect.Effect<A, E, SecretBox>) =>
  Effect.provide(self, boxLayer(keys))

const text = (s: string) => new TextEncoder().encode(s)
const flipped = (bytes: Uint8Array, index: number) => {
  const copy = Uint8Array.from(bytes)
  copy[index] ^= 0x01
  return copy
}

describe("AesGcmSecretBox", () => {
  const key = newKey()

  it.effect("round-trips under the current key id", () =>
    Effect.gen(function*() {
      const box = yield* SecretBox
      const sealed = yield* box.seal(text("tron private key"))
      expect(sealed.keyId).toBe(key.id)
      expect(sealed.blob.length).toBe(12 + "tron private key".length + 16)
      expect(yield* box.open(sealed)).toEqual(text("tron private key"))
      // Empty plaintext is a valid secret too.
      expect(yield* box.open(yield* box.seal(new Uint8Array()))).toEqual(new Uint8Array())
    }).pipe(withKeys({ current: key })))

  it.effect("returns blobs that own their memory", () =>
    Effect.gen(function*() {
      const box = yield* SecretBox
      const sealed = yield* box.seal(text("x"))
      expect(sealed.blob.byteOffset).toBe(0)
      expect(sealed.blob.buffer.byteLength).toBe(sealed.blob.length)
    }).pipe(withKeys({ current: key })))

  it.effect("seals the same plaintext differently each time", () =>
    Effect.gen(function*() {
      const box = yield* SecretBox
      const a = yield* box.seal(text("same"))
      const b = yield* box.seal(text("same"))
      expect(a.blob).not.toEqual(b.blob)
      expect(a.blob.subarray(0, 12)).not.toEqual(b.blob.subarray(0, 12))
    }).pipe(withKeys({ current: key })))

  it.effect("rejects a tampered nonce, ciphertext or tag", () =>
    Effect.gen(function*() {
      const box = yield* SecretBox
      const sealed = yield* box.seal(text("secret"))
      const last = sealed.blob.length - 1
      for (const index of [0, 11, 12, last - 16, last - 15, last]) {
        const error = yield* Effect.flip(box.open({ ...sealed, blob: flipped(sealed.blob, index) }))
        expect(error).toBeInstanceOf(SecretBoxError)
        expect(error.reason).toMatch(/failed authentication/)
      }
      const truncated = yield* Effect.flip(box.open({ ...sealed, blob: sealed.blob.subarray(0, 27) }))
      expect(truncated.reason).toMatch(/too short/)
    }).pipe(withKeys({ current: key })))

  it.effect("rejects an unknown key id without revealing secret material", () =>
    Effect.gen(function*() {
      const box = yield* SecretBox
      const sealed = yield* box.seal(text("secret"))
      const error = yield* Effect.flip(box.open({ ...sealed, keyId: "0000000000000000" }))
      expect(error.reason).toMatch(/no master key with id "0000000000000000"/)
      expect(error.reason).not.toContain(Buffer.from(sealed.blob).toString("hex"))
    }).pipe(withKeys({ current: key })))

  it.effect("rejects a blob presented under another known key's id", () => {
    const other = newKey()
    return Effect.gen(function*() {
      const box = yield* SecretBox
      const sealed = yield* box.seal(text("secret"))
      const error = yield* Effect.flip(box.open({ ...sealed, keyId: other.id }))
      expect(error.reason).toMatch(/failed authentication/)
    }).pipe(withKeys({ current: key, previous: [other] }))
  })

  it.effect("binds the key id as AAD, not only as a key selector", () =>
    Effect.gen(function*() {
      // Same key bytes under a forged id: only the AAD can tell the difference.
      const forged: MasterKey = { ...key, id: "ffffffffffffffff" }
      const sealed = yield* SecretBox.pipe(Effect.flatMap((box) => box.seal(text("secret"))))
      const error = yield* SecretBox.pipe(
        Effect.flatMap((box) => box.open({ ...sealed, keyId: forged.id })),
        Effect.flip,
        withKeys({ current: key, previous: [forged] })
      )
      expect(error.reason).toMatch(/failed authentication/)
    }).pipe(withKeys({ current: key })))

  it.effect("opens values sealed under a previous key after rotation", () => {
    const oldKey = newKey()
    const rotated = newKey()
    return Effect.gen(function*() {
      const before = yield* SecretBox.pipe(
        Effect.flatMap((box) => box.seal(text("sealed before rotation"))),
        withKeys({ current: oldKey })
      )
      expect(before.keyId).toBe(oldKey.id)

      const box = yield* SecretBox.pipe(withKeys({ current: rotated, previous: [oldKey] }))
      expect(yield* box.open(before)).toEqual(text("sealed before rotation"))
      const after = yield* box.seal(text("sealed after rotation"))
      expect(after.keyId).toBe(rotated.id)
      expect(yield* box.open(after)).toEqual(text("sealed after rotation"))

      // Once the old key is dropped from the keyring, its values no longer open.
      const dropped = yield* SecretBox.pipe(
        Effect.flatMap((b) => b.open(before)),
        Effect.flip,
        withKeys({ current: rotated })
      )
      expect(dropped.reason).toMatch(/no master key/)
    })
  })

  it.effect("takes each nonce from the Entropy port", () => {
    const nonces = [new Uint8Array(12).fill(1), new Uint8Array(12).fill(2)]
    const entropy = Layer.succeed(Entropy, { bytes: (length: number) => Effect.sync(() => nonces.shift()!.subarray(0, length)) })
    return Effect.gen(function*() {
      const box = yield* SecretBox
      const first = yield* box.seal(text("same"))
      const second = yield* box.seal(text("same"))
      expect(first.blob.subarray(0, 12)).toEqual(new Uint8Array(12).fill(1))
      expect(second.blob.subarray(0, 12)).toEqual(new Uint8Array(12).fill(2))
      expect(yield* box.open(second)).toEqual(text("same"))
    }).pipe(Effect.provide(AesGcmSecretBox.layer.pipe(Layer.provide(MasterKeyring.layer({ current: newKey() })), Layer.provide(entropy))))
  })
})
