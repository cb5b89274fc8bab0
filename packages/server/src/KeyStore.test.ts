import { randomBytes } from "node:crypto"
import { Engine, type Kernel, Wallets } from "@collector/core"
import { createTestToken, skipReason, softHsmInstalled, softHsmModule } from "@collector/pkcs11/testing"
import { TronSignature } from "@collector/tron"
import { AesGcmSecretBox, MasterKey, MasterKeyring, NodeEntropy } from "@collector/vault"
import { describe, expect, it } from "@effect/vitest"
import { sha256 } from "@noble/hashes/sha2.js"
import { ConfigProvider, Effect, Exit, Layer, Option } from "effect"
import * as KeyStore from "./KeyStore.js"

const box = AesGcmSecretBox.layer.pipe(
  Layer.provide(MasterKeyring.layer({ current: MasterKey.unsafeMake(randomBytes(32)) })),
  Layer.provideMerge(NodeEntropy.layer)
)
const hash = sha256(new TextEncoder().encode("txid"))

/** The key store as the processes build it, from these variables only. */
const storeFrom = (variables: Record<string, string>) =>
  KeyStore.layer.pipe(Layer.provide(box), Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(variables))))))

/** Readiness that is otherwise ready, with the key store's check beside it. */
const readinessWith = KeyStore.withReadiness("2 seconds")(Layer.succeed(Engine.Readiness, { check: Effect.succeed(Engine.readinessOf([{ component: "database", ready: true, detail: "ok" }])) }))

const startFailure = (variables: Record<string, string>) =>
  Effect.map(Effect.exit(Effect.scoped(Layer.build(storeFrom(variables)))), (exit) => {
    expect(Exit.isFailure(exit)).toBe(true)
    const error = Exit.isFailure(exit) ? Option.getOrThrow(Exit.causeOption(exit)) : undefined
    return JSON.stringify(error)
  })

describe("KeyStore", () => {
  it.effect("KEY_STORE defaults to local: local keys, and readiness reports the store", () =>
    Effect.gen(function*() {
      const keys = yield* Wallets.WalletKeys
      const wallet = yield* keys.generate("1" as Kernel.WalletId)
      expect(wallet.key.store).toBe("local")
      expect(TronSignature.recoverAddress(hash, yield* (yield* Wallets.Signer).sign(wallet, hash))).toEqual(Option.some(wallet.address))
      const report = yield* (yield* Engine.Readiness).check
      expect(report.ready).toBe(true)
      expect(report.checks.find((c) => c.component === "key_store")).toEqual({ component: "key_store", ready: true, detail: "local (keys sealed in the database)" })
    }).pipe(Effect.provide(Layer.mergeAll(KeyStore.walletKeys, KeyStore.signer, readinessWith).pipe(Layer.provide(storeFrom({}))))))

  it.effect("KEY_STORE=pkcs11 without its settings names the missing variable", () =>
    Effect.gen(function*() {
      expect(yield* startFailure({ KEY_STORE: "pkcs11" })).toContain("PKCS11_MODULE")
      expect(yield* startFailure({ KEY_STORE: "hsm" })).toContain("KEY_STORE")
    }))

  describe.skipIf(!softHsmInstalled)("with a SoftHSM2 token", () => {
    const token = softHsmInstalled ? createTestToken() : undefined!
    const variables = { KEY_STORE: "pkcs11", PKCS11_MODULE: softHsmModule, PKCS11_TOKEN_LABEL: token?.label ?? "", PKCS11_PIN: token?.pin ?? "", PKCS11_SESSIONS: "2" }

    it.effect("new wallets' keys are made in the token, labelled PKCS11_LABEL_PREFIX and the wallet's ID; readiness names the token", () =>
      Effect.gen(function*() {
        const wallet = yield* (yield* Wallets.WalletKeys).generate("7" as Kernel.WalletId)
        expect(wallet.key).toEqual({ store: "pkcs11", label: "deploy-b-7" })
        expect(TronSignature.recoverAddress(hash, yield* (yield* Wallets.Signer).sign(wallet, hash))).toEqual(Option.some(wallet.address))
        const check = (yield* (yield* Engine.Readiness).check).checks.find((c) => c.component === "key_store")
        expect(check?.ready).toBe(true)
        expect(check?.detail).toContain(`pkcs11 token "${token.label}"`)
      }).pipe(Effect.provide(Layer.mergeAll(KeyStore.walletKeys, KeyStore.signer, readinessWith).pipe(Layer.provide(storeFrom({ ...variables, PKCS11_LABEL_PREFIX: "deploy-b-" }))))))

    it.effect("a label prefix a token tool could not show stops the start, naming the variable", () =>
      Effect.gen(function*() {
        expect(yield* startFailure({ ...variables, PKCS11_LABEL_PREFIX: "wallet key/" })).toContain("PKCS11_LABEL_PREFIX must be")
      }))

    it.effect("a wrong PIN, an absent token and a missing module stop the start in one line, the PIN never shown", () =>
      Effect.gen(function*() {
        const wrong = yield* startFailure({ ...variables, PKCS11_PIN: "not-the-pin" })
        expect(wrong).toContain("CKR_PIN_INCORRECT")
        expect(wrong).not.toContain("not-the-pin")
        expect(yield* startFailure({ ...variables, PKCS11_TOKEN_LABEL: "elsewhere" })).toContain(`no PKCS#11 token labelled \\"elsewhere\\"`)
        expect(yield* startFailure({ ...variables, PKCS11_MODULE: "/missing/module.so" })).toContain("PKCS11_MODULE /missing/module.so cannot be loaded")
      }))
  })

  it("SoftHSM2 is installed, or the token tests say why they skip", () => expect(softHsmInstalled ? "installed" : skipReason).toBeTruthy())
})
