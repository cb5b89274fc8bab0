import { createCipheriv, randomBytes } from "node:crypto"
import { Kernel, Secrets } from "@collector/core"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import * as AesGcmSecretBox from "./AesGcmSecretBox.js"
import { MasterKey } from "./MasterKey.js"
import * as NodeEntropy from "./NodeEntropy.js"
import { MasterKeyring, type MasterKeys } from "./MasterKeyring.js"

const newKey = () => MasterKey.unsafeMake(randomBytes(32))
const boxLayer = (keys: MasterKeys) => AesGcmSecretBox.layer.pipe(Layer.provide(MasterKeyring.layer(keys)), Layer.provide(NodeEntropy.layer))
const withKeys = (keys: MasterKeys) => <A, E>(self: Effect.Effect<A, E, Secrets.SecretBox>) =>
  Effect.provide(self, boxLayer(keys))

const text = (s: string) => new TextEncoder().encode(s)
const here: Secrets.SealContext = Secrets.appSecretContext("7" as Kernel.TenantId, "nile")
const flipped = (bytes: Uint8Array, index: number) => {
  const copy = Uint8Array.from(bytes)
  copy[index] ^= 0x01
  return copy
}

describe("AesGcmSecretBox", () => {
  const key = newKey()

  it.effect("round-trips under the current key id", () =>
    Effect.gen(function*() {
      const box = yield* Secrets.SecretBox
      const sealed = yield* box.seal(text("tron private key"), here)
      expect(sealed.keyId).toBe(key.id)
      expect(sealed.blob.length).toBe(4 + 12 + "tron private key".length + 16)
      expect(yield* box.open(sealed, here)).toEqual(text("tron private key"))
      // Empty plaintext is a valid secret too.
      expect(yield* box.open(yield* box.seal(new Uint8Array(), here), here)).toEqual(new Uint8Array())
    }).pipe(withKeys({ current: key })))

  it.effect("returns blobs that own their memory", () =>
    Effect.gen(function*() {
      const box = yield* Secrets.SecretBox
      const sealed = yield* box.seal(text("x"), here)
      expect(sealed.blob.byteOffset).toBe(0)
      expect(sealed.blob.buffer.byteLength).toBe(sealed.blob.length)
    }).pipe(withKeys({ current: key })))

  it.effect("seals the same plaintext differently each time", () =>
    Effect.gen(function*() {
      const box = yield* Secrets.SecretBox
      const a = yield* box.seal(text("same"), here)
      const b = yield* box.seal(text("same"), here)
      expect(a.blob).not.toEqual(b.blob)
      expect(a.blob.subarray(4, 16)).not.toEqual(b.blob.subarray(4, 16))
    }).pipe(withKeys({ current: key })))

  it.effect("rejects a tampered nonce, ciphertext or tag", () =>
    Effect.gen(function*() {
      const box = yield* Secrets.SecretBox
      const sealed = yield* box.seal(text("secret"), here)
      const last = sealed.blob.length - 1
      for (const index of [0, 3, 4, 15, 16, last - 16, last - 15, last]) {
        const error = yield* Effect.flip(box.open({ ...sealed, blob: flipped(sealed.blob, index) }, here))
        expect(error).toBeInstanceOf(Secrets.SecretBoxError)
        expect(error.reason).toMatch(/failed authentication/)
      }
      const truncated = yield* Effect.flip(box.open({ ...sealed, blob: sealed.blob.subarray(0, 27) }, here))
      expect(truncated.reason).toMatch(/too short/)
    }).pipe(withKeys({ current: key })))

  it.effect("rejects an unknown key id without revealing secret material", () =>
    Effect.gen(function*() {
      const box = yield* Secrets.SecretBox
      const sealed = yield* box.seal(text("secret"), here)
      const error = yield* Effect.flip(box.open({ ...sealed, keyId: "0000000000000000" }, here))
      expect(error.reason).toMatch(/no master key with id "0000000000000000"/)
      expect(error.reason).not.toContain(Buffer.from(sealed.blob).toString("hex"))
    }).pipe(withKeys({ current: key })))

  it.effect("rejects a blob presented under another known key's id", () => {
    const other = newKey()
    return Effect.gen(function*() {
      const box = yield* Secrets.SecretBox
      const sealed = yield* box.seal(text("secret"), here)
      const error = yield* Effect.flip(box.open({ ...sealed, keyId: other.id }, here))
      expect(error.reason).toMatch(/failed authentication/)
    }).pipe(withKeys({ current: key, previous: [other] }))
  })

  it.effect("binds the key id as AAD, not only as a key selector", () =>
    Effect.gen(function*() {
      // Same key bytes under a forged id: only the AAD can tell the difference.
      const forged: MasterKey = { ...key, id: "ffffffffffffffff" }
      const sealed = yield* Secrets.SecretBox.pipe(Effect.flatMap((box) => box.seal(text("secret"), here)))
      const error = yield* Secrets.SecretBox.pipe(
        Effect.flatMap((box) => box.open({ ...sealed, keyId: forged.id }, here)),
        Effect.flip,
        withKeys({ current: key, previous: [forged] })
      )
      expect(error.reason).toMatch(/failed authentication/)
    }).pipe(withKeys({ current: key })))

  it.effect("opens values sealed under a previous key after rotation", () => {
    const oldKey = newKey()
    const rotated = newKey()
    return Effect.gen(function*() {
      const before = yield* Secrets.SecretBox.pipe(
        Effect.flatMap((box) => box.seal(text("sealed before rotation"), here)),
        withKeys({ current: oldKey })
      )
      expect(before.keyId).toBe(oldKey.id)

      const box = yield* Secrets.SecretBox.pipe(withKeys({ current: rotated, previous: [oldKey] }))
      expect(yield* box.open(before, here)).toEqual(text("sealed before rotation"))
      const after = yield* box.seal(text("sealed after rotation"), here)
      expect(after.keyId).toBe(rotated.id)
      expect(yield* box.open(after, here)).toEqual(text("sealed after rotation"))

      // Once the old key is dropped from the keyring, its values no longer open.
      const dropped = yield* Secrets.SecretBox.pipe(
        Effect.flatMap((b) => b.open(before, here)),
        Effect.flip,
        withKeys({ current: rotated })
      )
      expect(dropped.reason).toMatch(/no master key/)
    })
  })

  it.effect("takes each nonce from the Entropy port", () => {
    const nonces = [new Uint8Array(12).fill(1), new Uint8Array(12).fill(2)]
    const entropy = Layer.succeed(Kernel.Entropy, { bytes: (length: number) => Effect.sync(() => nonces.shift()!.subarray(0, length)) })
    return Effect.gen(function*() {
      const box = yield* Secrets.SecretBox
      const first = yield* box.seal(text("same"), here)
      const second = yield* box.seal(text("same"), here)
      expect(first.blob.subarray(4, 16)).toEqual(new Uint8Array(12).fill(1))
      expect(second.blob.subarray(4, 16)).toEqual(new Uint8Array(12).fill(2))
      expect(yield* box.open(second, here)).toEqual(text("same"))
    }).pipe(Effect.provide(AesGcmSecretBox.layer.pipe(Layer.provide(MasterKeyring.layer({ current: newKey() })), Layer.provide(entropy))))
  })

  it.effect("binds a value to its place: copied to another row, column or table it does not open", () =>
    Effect.gen(function*() {
      const box = yield* Secrets.SecretBox
      const sealed = yield* box.seal(text("app secret"), Secrets.appSecretContext("7" as Kernel.TenantId, "nile"))
      expect(yield* box.open(sealed, Secrets.appSecretContext("7" as Kernel.TenantId, "nile"))).toEqual(text("app secret"))
      for (const elsewhere of [
        Secrets.appSecretContext("8" as Kernel.TenantId, "nile"),
        Secrets.appSecretContext("7" as Kernel.TenantId, "main"),
        Secrets.webhookKeyContext("7" as Kernel.TenantId, "nile"),
        Secrets.walletKeyContext("7/nile")
      ]) {
        const error = yield* Effect.flip(box.open(sealed, elsewhere))
        expect(error.reason).toMatch(/failed authentication/)
      }
    }).pipe(withKeys({ current: key })))

  it.effect("tells places apart however their parts split", () =>
    Effect.gen(function*() {
      const box = yield* Secrets.SecretBox
      // Each pair concatenates to the same text: only an unambiguous encoding keeps them apart.
      const pairs: ReadonlyArray<readonly [Secrets.SealContext, Secrets.SealContext]> = [
        [{ table: "a", column: "b/c", row: "d" }, { table: "a", column: "b", row: "c/d" }],
        [{ table: "ab", column: "", row: "c" }, { table: "a", column: "b", row: "c" }],
        [{ table: "a", column: "bc", row: "" }, { table: "a", column: "b", row: "c" }]
      ]
      for (const [one, other] of pairs) {
        const sealed = yield* box.seal(text("x"), one)
        expect(yield* box.open(sealed, one)).toEqual(text("x"))
        expect((yield* Effect.flip(box.open(sealed, other))).reason).toMatch(/failed authentication/)
      }
    }).pipe(withKeys({ current: key })))

  /** A value as it was sealed before places were bound: nonce || ciphertext || tag, the key id as AAD. */
  const sealedV1 = (under: MasterKey, plaintext: Uint8Array, nonce: Uint8Array = randomBytes(12)) => {
    const cipher = createCipheriv("aes-256-gcm", Redacted.value(under.bytes), nonce, { authTagLength: 16 })
    cipher.setAAD(Buffer.from(under.id, "utf8"))
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()])
    return { keyId: under.id, blob: new Uint8Array(Buffer.concat([nonce, body, cipher.getAuthTag()])) }
  }

  it.effect("still opens values sealed before places were bound, under the current and a previous key, and says they are not current", () => {
    const old = newKey()
    return Effect.gen(function*() {
      const box = yield* Secrets.SecretBox
      const underCurrent = sealedV1(key, text("old format"))
      const underOld = sealedV1(old, text("older key"))
      // Their place was never bound, so any place opens them (until re-sealed).
      expect(yield* box.open(underCurrent, here)).toEqual(text("old format"))
      expect(yield* box.open(underOld, Secrets.walletKeyContext("T1"))).toEqual(text("older key"))
      // One in 2^32 old nonces starts like the new header: such a value opens all the same.
      const lookalike = sealedV1(key, text("lookalike"), Uint8Array.of(0x53, 0x42, 0x00, 0x02, 1, 2, 3, 4, 5, 6, 7, 8))
      expect(yield* box.open(lookalike, here)).toEqual(text("lookalike"))
      expect(box.isCurrent(underCurrent)).toBe(false)
      expect(box.isCurrent(underOld)).toBe(false)
      expect(box.isCurrent(yield* box.seal(text("new"), here))).toBe(true)
      expect(box.keyIds).toEqual({ current: key.id, previous: [old.id] })
    }).pipe(withKeys({ current: key, previous: [old] }))
  })

  it.effect("does not count a value sealed under a previous key as current", () => {
    const old = newKey()
    return Effect.gen(function*() {
      const before = yield* Secrets.SecretBox.pipe(Effect.flatMap((box) => box.seal(text("x"), here)), withKeys({ current: old }))
      const box = yield* Secrets.SecretBox.pipe(withKeys({ current: key, previous: [old] }))
      expect(box.isCurrent(before)).toBe(false)
      expect(yield* box.open(before, here)).toEqual(text("x"))
    })
  })
})
