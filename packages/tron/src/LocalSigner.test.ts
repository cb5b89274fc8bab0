import { randomBytes } from "node:crypto"
import { type Kernel, Secrets, Wallets } from "@collector/core"
import { AesGcmSecretBox, MasterKey, MasterKeyring, NodeEntropy } from "@collector/vault"
import { describe, expect, it } from "@effect/vitest"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js"
import { Effect, Either, Layer, Option } from "effect"
import * as LocalSigner from "./LocalSigner.js"
import * as LocalWalletKeys from "./LocalWalletKeys.js"
import * as TronAddress from "./TronAddress.js"
import * as TronSignature from "./TronSignature.js"

const boxLayer = AesGcmSecretBox.layer.pipe(
  Layer.provide(MasterKeyring.layer({ current: MasterKey.unsafeMake(randomBytes(32)) })),
  Layer.provideMerge(NodeEntropy.layer)
)
const testLayer = Layer.mergeAll(
  LocalWalletKeys.layer.pipe(Layer.provide(boxLayer)),
  LocalSigner.layer.pipe(Layer.provide(boxLayer)),
  boxLayer
)

// The local store does not use the wallet's ID (its sealed key is bound to the address).
const generate = Effect.flatMap(Wallets.WalletKeys, (keys) => keys.generate("1" as Kernel.WalletId))
const sign = (wallet: Wallets.GeneratedWallet, hash: Uint8Array) => Effect.flatMap(Wallets.Signer, (signer) => signer.sign(wallet, hash))
const txHash = (text: string) => sha256(new TextEncoder().encode(text))
/** The sealed key of a wallet this store generated (always local). */
const sealedOf = (wallet: Wallets.GeneratedWallet): Secrets.Sealed => {
  if (wallet.key.store !== "local") throw new Error("expected a local key")
  return wallet.key.sealed
}

/** Runs a signing expected to fail and returns its reason. */
const failureReason = (effect: Effect.Effect<Uint8Array, Wallets.SigningFailed, Wallets.Signer>) =>
  Effect.map(Effect.either(effect), (result) => {
    expect(Either.isLeft(result)).toBe(true)
    const error = Either.getLeft(result).pipe(Option.getOrThrow)
    expect(error).toBeInstanceOf(Wallets.SigningFailed)
    return error.reason
  })

describe("LocalSigner", () => {
  it.effect("signs a hash so that it verifies and recovers to the wallet's address", () =>
    Effect.gen(function*() {
      const box = yield* Secrets.SecretBox
      for (let i = 0; i < 10; i++) {
        const wallet = yield* generate
        const hash = txHash(`tx ${i}`)
        const signature = yield* sign(wallet, hash)
        expect(signature.length).toBe(65)
        expect([0, 1]).toContain(signature[64])
        expect(TronSignature.recoverAddress(hash, signature)).toEqual(Option.some(wallet.address))
        const secretKey = yield* box.open(sealedOf(wallet), Secrets.walletKeyContext(wallet.address))
        expect(secp256k1.verify(signature.subarray(0, 64), hash, secp256k1.getPublicKey(secretKey), { prehash: false })).toBe(true)
        // Deterministic (RFC 6979): the same hash gives the same signature.
        expect(yield* sign(wallet, hash)).toEqual(signature)
      }
    }).pipe(Effect.provide(testLayer)))

  it.effect("refuses a wallet whose key is held in a PKCS#11 token (that store's signer signs for it)", () =>
    Effect.gen(function*() {
      const wallet = yield* generate
      const reason = yield* failureReason(sign({ address: wallet.address, key: Wallets.tokenKey("collector-wallet-00") }, txHash("t")))
      expect(reason).toBe(`the key of wallet ${wallet.address} is held in the pkcs11 key store, not the local one`)
    }).pipe(Effect.provide(testLayer)))

  it.effect("signs with a known key exactly as the pure signer does", () =>
    Effect.gen(function*() {
      const box = yield* Secrets.SecretBox
      const secretKey = hexToBytes("097c8ba8a310f39a41a667d35a20000cd21d58c7322484b584c4ada8ebd3ec06")
      const wallet = { address: "TLHx2Ta9WwtwDjgGxyeifHs5ipmJrJAbZ3", key: Wallets.localKey(yield* box.seal(Uint8Array.from(secretKey), Secrets.walletKeyContext("TLHx2Ta9WwtwDjgGxyeifHs5ipmJrJAbZ3"))) }
      const hash = txHash("known")
      expect(yield* sign(wallet, hash)).toEqual(TronSignature.sign(secretKey, hash))
    }).pipe(Effect.provide(testLayer)))

  it.effect("refuses to sign for an address that is not the sealed key's", () =>
    Effect.gen(function*() {
      const box = yield* Secrets.SecretBox
      const a = yield* generate
      const b = yield* generate
      // A key copied to another wallet's row no longer opens there: it was sealed for its own.
      const moved = yield* failureReason(sign({ address: b.address, key: a.key }, txHash("mix-up")))
      expect(moved).toContain("could not be opened")
      // A key sealed for the wrong wallet in the first place opens, but must not sign for it.
      const keyA = yield* box.open(sealedOf(a), Secrets.walletKeyContext(a.address))
      const misfiled = yield* box.seal(Uint8Array.from(keyA), Secrets.walletKeyContext(b.address))
      const reason = yield* failureReason(sign({ address: b.address, key: Wallets.localKey(misfiled) }, txHash("mix-up")))
      expect(reason).toContain("does not belong")
      expect(reason).not.toContain(bytesToHex(keyA))
      expect(reason).not.toContain(a.address)
    }).pipe(Effect.provide(testLayer)))

  it.effect("refuses a tampered sealed key", () =>
    Effect.gen(function*() {
      const wallet = yield* generate
      for (const index of [0, 20, sealedOf(wallet).blob.length - 1]) {
        const blob = Uint8Array.from(sealedOf(wallet).blob)
        blob[index] = blob[index]! ^ 0x01
        const reason = yield* failureReason(sign({ ...wallet, key: Wallets.localKey({ ...sealedOf(wallet), blob }) }, txHash("t")))
        expect(reason).toContain("could not be opened")
      }
      const reason = yield* failureReason(sign({ ...wallet, key: Wallets.localKey({ ...sealedOf(wallet), keyId: "unknown" }) }, txHash("t")))
      expect(reason).toContain("could not be opened")
      // Truncated blob.
      yield* failureReason(sign({ ...wallet, key: Wallets.localKey({ ...sealedOf(wallet), blob: sealedOf(wallet).blob.subarray(0, 20) }) }, txHash("t")))
    }).pipe(Effect.provide(testLayer)))

  it.effect("refuses sealed bytes that are not a secp256k1 key", () =>
    Effect.gen(function*() {
      const box = yield* Secrets.SecretBox
      const wallet = yield* generate
      const n = secp256k1.Point.CURVE().n
      for (const bytes of [new Uint8Array(16).fill(7), new Uint8Array(32), hexToBytes(n.toString(16)), new Uint8Array(33).fill(1)]) {
        const reason = yield* failureReason(sign({ address: wallet.address, key: Wallets.localKey(yield* box.seal(bytes, Secrets.walletKeyContext(wallet.address))) }, txHash("x")))
        expect(reason).toContain("not a secp256k1 key")
      }
    }).pipe(Effect.provide(testLayer)))

  it.effect("refuses a hash that is not 32 bytes", () =>
    Effect.gen(function*() {
      const wallet = yield* generate
      for (const length of [0, 31, 33, 64]) {
        const reason = yield* failureReason(sign(wallet, new Uint8Array(length).fill(1)))
        expect(reason).toContain("32 bytes")
      }
    }).pipe(Effect.provide(testLayer)))

  it.effect("zeroes the opened key after signing and after a refusal", () =>
    Effect.gen(function*() {
      const real = yield* Secrets.SecretBox
      const opened: Array<Uint8Array> = []
      const spy: Secrets.SecretBox["Type"] = {
        ...real,
        open: (sealed, context) => Effect.tap(real.open(sealed, context), (key) => Effect.sync(() => opened.push(key)))
      }
      const signer = yield* Effect.provide(Wallets.Signer, LocalSigner.layer.pipe(Layer.provide(Layer.succeed(Secrets.SecretBox, spy))))
      const a = yield* generate
      const b = yield* generate
      const hash = txHash("zero")
      const signature = yield* signer.sign(a, hash)
      const misfiled = yield* real.seal(yield* real.open(sealedOf(a), Secrets.walletKeyContext(a.address)), Secrets.walletKeyContext(b.address))
      yield* Effect.either(signer.sign({ address: b.address, key: Wallets.localKey(misfiled) }, hash))
      expect(opened.length).toBe(2)
      for (const key of opened) expect(key.every((byte) => byte === 0)).toBe(true)
      // The signature was made before zeroing, with the real key.
      expect(TronSignature.recoverAddress(hash, signature)).toEqual(Option.some(a.address))
    }).pipe(Effect.provide(testLayer)))

  it("derives the same address the signer checks against", () => {
    const secretKey = secp256k1.utils.randomSecretKey()
    expect(TronAddress.isValidTronAddress(TronAddress.fromSecretKey(secretKey))).toBe(true)
  })
})
