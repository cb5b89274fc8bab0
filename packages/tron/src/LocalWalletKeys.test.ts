import { randomBytes } from "node:crypto"
import { Kernel, Secrets, Wallets } from "@collector/core"
import { AesGcmSecretBox, MasterKey, MasterKeyring, NodeEntropy } from "@collector/vault"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as LocalWalletKeys from "./LocalWalletKeys.js"
import * as TronAddress from "./TronAddress.js"

const boxLayer = AesGcmSecretBox.layer.pipe(
  Layer.provide(MasterKeyring.layer({ current: MasterKey.unsafeMake(randomBytes(32)) })),
  Layer.provideMerge(NodeEntropy.layer)
)
const keysLayer = Layer.merge(LocalWalletKeys.layer.pipe(Layer.provide(boxLayer)), boxLayer)

/** The sealed key of a wallet this store generated (always local). */
const sealedOf = (wallet: Wallets.GeneratedWallet): Secrets.Sealed => {
  if (wallet.key.store !== "local") throw new Error("expected a local key")
  return wallet.key.sealed
}

/** True when `needle` occurs anywhere in `haystack` as a contiguous run. */
const contains = (haystack: Uint8Array, needle: Uint8Array): boolean =>
  Buffer.from(haystack).indexOf(Buffer.from(needle)) !== -1

describe("LocalWalletKeys", () => {
  it.effect("generates 100 distinct valid wallets whose sealed keys open to the address's key", () =>
    Effect.gen(function*() {
      const keys = yield* Wallets.WalletKeys
      const box = yield* Secrets.SecretBox
      const wallets = yield* Effect.replicateEffect(keys.generate("1" as Kernel.WalletId), 100)
      expect(new Set(wallets.map((w) => w.address)).size).toBe(100)
      const secretKeys = new Set<string>()
      for (const wallet of wallets) {
        expect(TronAddress.isValidTronAddress(wallet.address)).toBe(true)
        const secretKey = yield* box.open(sealedOf(wallet), Secrets.walletKeyContext(wallet.address))
        expect(secretKey.length).toBe(32)
        expect(TronAddress.fromSecretKey(secretKey)).toBe(wallet.address)
        // The sealed blob must not carry the key in clear, nor any 8-byte run of it.
        expect(contains(sealedOf(wallet).blob, secretKey)).toBe(false)
        for (let i = 0; i + 8 <= 32; i += 8) expect(contains(sealedOf(wallet).blob, secretKey.subarray(i, i + 8))).toBe(false)
        secretKeys.add(Buffer.from(secretKey).toString("hex"))
      }
      expect(secretKeys.size).toBe(100)
    }).pipe(Effect.provide(keysLayer)))

  it.effect("zeroes the plaintext key it handed to SecretBox.seal", () =>
    Effect.gen(function*() {
      const real = yield* Secrets.SecretBox
      const handed: Array<Uint8Array> = []
      const copies: Array<Uint8Array> = []
      const spy: Secrets.SecretBox["Type"] = {
        ...real,
        seal: (plaintext, context) => {
          handed.push(plaintext)
          copies.push(Uint8Array.from(plaintext))
          return real.seal(plaintext, context)
        }
      }
      const wallet = yield* Effect.flatMap(Wallets.WalletKeys, (k) => k.generate("1" as Kernel.WalletId)).pipe(
        Effect.provide(LocalWalletKeys.layer.pipe(Layer.provide(Layer.succeed(Secrets.SecretBox, spy))))
      )
      expect(handed.length).toBe(1)
      expect(copies[0]!.some((b) => b !== 0)).toBe(true)
      expect(handed[0]!.every((b) => b === 0)).toBe(true)
      // The zeroing happened after sealing: the sealed copy still opens to the real key.
      expect(yield* real.open(sealedOf(wallet), Secrets.walletKeyContext(wallet.address))).toEqual(copies[0])
    }).pipe(Effect.provide(boxLayer)))

  it.effect("draws its keys from the Entropy port: the same bytes give the same wallet, other bytes another", () =>
    Effect.gen(function*() {
      const box = yield* Secrets.SecretBox
      const generateWith = (fill: number) =>
        Effect.flatMap(Wallets.WalletKeys, (k) => k.generate("1" as Kernel.WalletId)).pipe(
          Effect.provide(LocalWalletKeys.layer.pipe(Layer.provide(Layer.merge(
            Layer.succeed(Secrets.SecretBox, box),
            Layer.succeed(Kernel.Entropy, { bytes: (length) => Effect.succeed(new Uint8Array(length).fill(fill)) })
          ))))
        )
      const first = yield* generateWith(7)
      expect((yield* generateWith(7)).address).toBe(first.address)
      expect((yield* generateWith(8)).address).not.toBe(first.address)
      expect(TronAddress.isValidTronAddress(first.address)).toBe(true)
    }).pipe(Effect.provide(boxLayer)))
})
