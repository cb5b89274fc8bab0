import { type Kernel, Wallets } from "@collector/core"
import { TronAddress, TronSignature } from "@collector/tron"
import { describe, expect, it } from "@effect/vitest"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex } from "@noble/hashes/utils.js"
import { Effect, Either, type Layer, Option } from "effect"
import { TronWeb, utils } from "tronweb"

// Wallet IDs as the repository would draw them: each once in this process, so a token that
// labels keys by ID never sees one twice across the contract's tests.
let lastId = 0n
const drawId = Effect.sync(() => String(++lastId) as Kernel.WalletId)

const halfOrder = secp256k1.Point.CURVE().n / 2n
const txHash = (text: string) => sha256(new TextEncoder().encode(text))

/** tronweb's own recovery (ethers underneath, which refuses a high S) as a base58 address. */
const tronwebSigner = (hash: Uint8Array, signature: Uint8Array): string =>
  TronWeb.address.fromHex(utils.crypto.ecRecover(bytesToHex(hash), bytesToHex(signature)))

/**
 * What every key store (WalletKeys with its Signer) must do, whatever holds the keys: fresh valid
 * addresses recorded under the store's name, and signatures in TRON's form (r || s || v, low S,
 * v = 0 or 1) that tronweb and noble both recover to the wallet's address. The expected values
 * come from the chain's rules and other libraries, never from the adapter under test.
 */
export const keyStoreContract = (name: string, store: Wallets.KeyStoreName, layer: Layer.Layer<Wallets.WalletKeys | Wallets.Signer>) =>
  describe(`key store contract: ${name}`, () => {
    it.effect("generates distinct valid wallets whose key is recorded under the store", () =>
      Effect.gen(function*() {
        const keys = yield* Wallets.WalletKeys
        const wallets = yield* Effect.replicateEffect(Effect.flatMap(drawId, keys.generate), 8)
        expect(new Set(wallets.map((w) => w.address)).size).toBe(8)
        for (const wallet of wallets) {
          expect(TronAddress.isValidTronAddress(wallet.address)).toBe(true)
          expect(wallet.key.store).toBe(store)
        }
      }).pipe(Effect.provide(layer)))

    it.effect("signs so that noble verifies, tronweb and our recovery give the wallet's address, with low S and v in 0..1", () =>
      Effect.gen(function*() {
        const keys = yield* Wallets.WalletKeys
        const signer = yield* Wallets.Signer
        for (let i = 0; i < 6; i++) {
          const wallet = yield* Effect.flatMap(drawId, keys.generate)
          const hash = txHash(`contract ${store} ${i}`)
          const signature = yield* signer.sign(wallet, hash)
          expect(signature.length).toBe(65)
          expect([0, 1]).toContain(signature[64])
          const parsed = secp256k1.Signature.fromBytes(signature.subarray(0, 64), "compact")
          expect(parsed.s <= halfOrder).toBe(true)
          expect(TronSignature.recoverAddress(hash, signature)).toEqual(Option.some(wallet.address))
          expect(tronwebSigner(hash, signature)).toBe(wallet.address)
          const publicKey = parsed.addRecoveryBit(signature[64]!).recoverPublicKey(hash).toBytes(false)
          expect(secp256k1.verify(signature.subarray(0, 64), hash, publicKey, { prehash: false })).toBe(true)
          // Another hash's signature does not verify for this one.
          expect(secp256k1.verify(signature.subarray(0, 64), txHash("other"), publicKey, { prehash: false })).toBe(false)
        }
      }).pipe(Effect.provide(layer)))

    it.effect("signs concurrently for many wallets, each signature recovering to its own wallet", () =>
      Effect.gen(function*() {
        const keys = yield* Wallets.WalletKeys
        const signer = yield* Wallets.Signer
        const wallets = yield* Effect.replicateEffect(Effect.flatMap(drawId, keys.generate), 6)
        const jobs = wallets.flatMap((wallet, i) => [0, 1, 2].map((j) => ({ wallet, hash: txHash(`c ${i} ${j}`) })))
        const signatures = yield* Effect.forEach(jobs, ({ wallet, hash }) => signer.sign(wallet, hash), { concurrency: 8 })
        jobs.forEach(({ wallet, hash }, i) => expect(tronwebSigner(hash, signatures[i]!)).toBe(wallet.address))
      }).pipe(Effect.provide(layer)))

    it.effect("refuses to sign for a wallet with another wallet's key, and a hash that is not 32 bytes", () =>
      Effect.gen(function*() {
        const keys = yield* Wallets.WalletKeys
        const signer = yield* Wallets.Signer
        const a = yield* Effect.flatMap(drawId, keys.generate)
        const b = yield* Effect.flatMap(drawId, keys.generate)
        const mixed = yield* Effect.either(signer.sign({ address: b.address, key: a.key }, txHash("mix-up")))
        expect(Either.isLeft(mixed)).toBe(true)
        expect(Either.getLeft(mixed).pipe(Option.getOrThrow)).toBeInstanceOf(Wallets.SigningFailed)
        expect(Either.getLeft(mixed).pipe(Option.getOrThrow).reason).toContain(b.address)
        const short = yield* Effect.either(signer.sign(a, new Uint8Array(31)))
        expect(Either.getLeft(short).pipe(Option.map((e) => e.reason), Option.getOrThrow)).toContain("32 bytes")
      }).pipe(Effect.provide(layer)))
  })
