import { randomBytes } from "node:crypto"
import { type Kernel, Wallets } from "@collector/core"
import { LocalSigner, LocalWalletKeys, TronSignature } from "@collector/tron"
import { AesGcmSecretBox, MasterKey, MasterKeyring, NodeEntropy } from "@collector/vault"
import { describe, expect, it } from "@effect/vitest"
import { sha256 } from "@noble/hashes/sha2.js"
import { Effect, Exit, Layer, Option, Redacted, Scope } from "effect"
import pkcs11js from "pkcs11js"
import * as Pkcs11Signer from "./Pkcs11Signer.js"
import * as Pkcs11Token from "./Pkcs11Token.js"
import * as Pkcs11WalletKeys from "./Pkcs11WalletKeys.js"
import { resourceAccountLabel } from "./ResourceAccountLabel.js"
import { createTestToken, skipReason, softHsmInstalled, softHsmModule } from "./testing/SoftHsmToken.js"
import { privateKeyAttributes } from "./testing/TokenKeyAttributes.js"

const box = AesGcmSecretBox.layer.pipe(
  Layer.provide(MasterKeyring.layer({ current: MasterKey.unsafeMake(randomBytes(32)) })),
  Layer.provideMerge(NodeEntropy.layer)
)
const hash = sha256(new TextEncoder().encode("a transaction id"))

/** The reason a token fails to open with, or the test fails. */
const openFailure = (settings: Parameters<typeof Pkcs11Token.open>[0]) =>
  Effect.map(Effect.exit(Effect.scoped(Pkcs11Token.open(settings))), (exit) => {
    expect(Exit.isFailure(exit)).toBe(true)
    return Exit.isFailure(exit) ? String(Option.getOrThrow(Exit.causeOption(exit)).pipe((cause) => JSON.stringify(cause))) : ""
  })

/** A second handle on the loaded module (the library keeps one state per process), as an operator's tool would be. */
const sideChannel = () => {
  const module = new pkcs11js.PKCS11()
  module.load(softHsmModule)
  return module
}

describe.skipIf(!softHsmInstalled)("PKCS#11 token (SoftHSM2)", () => {
  const token = softHsmInstalled ? createTestToken() : undefined!

  it.effect("start-up failures are one line each: module missing, token absent, PIN wrong", () =>
    Effect.gen(function*() {
      expect(yield* openFailure({ ...token.settings, module: "/nonexistent/libpkcs11.so" })).toContain("PKCS11_MODULE /nonexistent/libpkcs11.so cannot be loaded")
      const absent = yield* openFailure({ ...token.settings, token: { label: "no-such-token" } })
      expect(absent).toContain(`no PKCS#11 token labelled \\"no-such-token\\" is present`)
      expect(absent).toContain(token.label)
      const wrongPin = yield* openFailure({ ...token.settings, pin: Redacted.make("wrong-pin") })
      expect(wrongPin).toContain("was refused (CKR_PIN_INCORRECT)")
      expect(wrongPin).not.toContain("wrong-pin")
      // The token still opens with the right PIN afterwards (one wrong try at start, not one per session).
      const description = yield* Effect.scoped(Effect.map(Pkcs11Token.open(token.settings), (t) => t.description))
      expect(description).toContain(`token "${token.label}"`)
    }))

  it.effect("a generated key is in the token, sensitive, not extractable and private; its value cannot be read", () =>
    Effect.gen(function*() {
      const opened = yield* Pkcs11Token.open(token.settings)
      const generated = yield* Pkcs11WalletKeys.make(opened).generate("101" as Kernel.WalletId)
      expect(generated.key).toEqual({ store: "pkcs11", label: "collector-wallet-101" })
      const label = generated.key.store === "pkcs11" ? generated.key.label : ""
      const flags = yield* opened.withSession((session) =>
        Effect.gen(function*() {
          yield* Pkcs11Token.call(() => session.module.C_FindObjectsInit(session.handle, [{ type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PRIVATE_KEY }, { type: pkcs11js.CKA_LABEL, value: label }]))
          const [key] = yield* Pkcs11Token.call(() => session.module.C_FindObjects(session.handle, 2))
          yield* Pkcs11Token.call(() => session.module.C_FindObjectsFinal(session.handle))
          const attributes = yield* Pkcs11Token.call(() =>
            session.module.C_GetAttributeValue(session.handle, key!, [
              { type: pkcs11js.CKA_TOKEN },
              { type: pkcs11js.CKA_SENSITIVE },
              { type: pkcs11js.CKA_EXTRACTABLE },
              { type: pkcs11js.CKA_PRIVATE }
            ]))
          const value = yield* Effect.either(Pkcs11Token.call(() => session.module.C_GetAttributeValue(session.handle, key!, [{ type: pkcs11js.CKA_VALUE }])))
          return { bools: attributes.map((a) => a.value![0]), value }
        }))
      expect(flags.bools).toEqual([1, 1, 0, 1])
      expect(flags.value._tag).toBe("Left")
      expect(flags.value._tag === "Left" && flags.value.left.returnValue).toBe("CKR_ATTRIBUTE_SENSITIVE")
    }).pipe(Effect.scoped))

  it.effect("a wallet ID whose label the token already holds (another deployment, same prefix) is refused, and the first key still signs", () =>
    Effect.gen(function*() {
      const opened = yield* Pkcs11Token.open(token.settings)
      const first = yield* Pkcs11WalletKeys.make(opened, "shared-").generate("5" as Kernel.WalletId)
      const again = yield* Effect.flip(Pkcs11WalletKeys.make(opened, "shared-").generate("5" as Kernel.WalletId))
      expect(again).toBeInstanceOf(Wallets.KeyGenerationFailed)
      expect(again.reason).toContain("already holds an object labelled shared-5")
      expect(again.reason).toContain("PKCS11_LABEL_PREFIX")
      // Another prefix is another name: the same ID is free under it.
      expect((yield* Pkcs11WalletKeys.make(opened, "other-").generate("5" as Kernel.WalletId)).key).toEqual({ store: "pkcs11", label: "other-5" })
      const signer = Pkcs11Signer.make(opened, { sign: () => Effect.dieMessage("no local wallet here") })
      expect(TronSignature.recoverAddress(hash, yield* signer.sign(first, hash))).toEqual(Option.some(first.address))
    }).pipe(Effect.scoped))

  it.effect("a key for no wallet (a resource account's) is made under the label given, as protected as a wallet's, and never twice", () =>
    Effect.gen(function*() {
      const opened = yield* Pkcs11Token.open(token.settings)
      const label = resourceAccountLabel("rt-", "nile", "7" as Kernel.TenantId)
      expect([label, resourceAccountLabel("rt-", "main", null)]).toEqual(["rt-resource-nile-7", "rt-resource-main-default"])
      const account = yield* Pkcs11WalletKeys.generateLabelled(opened, label)
      expect(account.key).toEqual({ store: "pkcs11", label })
      expect(yield* privateKeyAttributes(opened, label)).toEqual({ sensitive: true, extractable: false, valueRequest: "CKR_ATTRIBUTE_SENSITIVE" })
      const again = yield* Effect.flip(Pkcs11WalletKeys.generateLabelled(opened, label))
      expect(again.reason).toContain(`already holds an object labelled ${label}`)
      const signer = Pkcs11Signer.make(opened, { sign: () => Effect.dieMessage("no local wallet here") })
      expect(TronSignature.recoverAddress(hash, yield* signer.sign(account, hash))).toEqual(Option.some(account.address))
    }).pipe(Effect.scoped))

  it.effect("a session lost mid-run (all closed behind our back) is replaced and the next signature succeeds", () =>
    Effect.gen(function*() {
      const opened = yield* Pkcs11Token.open({ ...token.settings, sessions: 2 })
      const keys = Pkcs11WalletKeys.make(opened)
      const signer = Pkcs11Signer.make(opened, { sign: () => Effect.dieMessage("no local wallet here") })
      const wallet = yield* keys.generate("102" as Kernel.WalletId)
      expect(TronSignature.recoverAddress(hash, yield* signer.sign(wallet, hash))).toEqual(Option.some(wallet.address))
      const side = sideChannel()
      const slot = side.C_GetSlotList(true).find((s) => side.C_GetTokenInfo(s).label.trim() === token.label)!
      side.C_CloseAllSessions(slot)
      // Every pooled session and the login with them are gone: the pool opens and logs in afresh.
      expect(TronSignature.recoverAddress(hash, yield* signer.sign(wallet, hash))).toEqual(Option.some(wallet.address))
      yield* opened.probe
    }).pipe(Effect.scoped))

  it.effect("with the PKCS#11 store configured, wallets with local keys still sign through the local signer", () =>
    Effect.gen(function*() {
      const local = yield* Effect.provide(Wallets.WalletKeys, LocalWalletKeys.layer.pipe(Layer.provide(box)))
      const old = yield* local.generate("103" as Kernel.WalletId)
      expect(old.key.store).toBe("local")
      const signer = yield* Wallets.Signer
      expect(TronSignature.recoverAddress(hash, yield* signer.sign(old, hash))).toEqual(Option.some(old.address))
      const fresh = yield* (yield* Wallets.WalletKeys).generate("104" as Kernel.WalletId)
      expect(fresh.key.store).toBe("pkcs11")
      expect(TronSignature.recoverAddress(hash, yield* signer.sign(fresh, hash))).toEqual(Option.some(fresh.address))
    }).pipe(Effect.provide(
      Layer.mergeAll(Pkcs11WalletKeys.layer(), Pkcs11Signer.layer(LocalSigner.layer.pipe(Layer.provide(box)))).pipe(
        Layer.provide(Layer.merge(Layer.orDie(Pkcs11Token.layer(token.settings)), NodeEntropy.layer))
      )
    )))

  it("skips only when SoftHSM2 is missing", () => expect(softHsmInstalled || skipReason).toBe(true))
})

describe.skipIf(!softHsmInstalled)("PKCS#11 token opened twice in one process", () => {
  const token = softHsmInstalled ? createTestToken() : undefined!

  it.effect("the API's and the worker's stores share the module: both sign, and closing one leaves the other working", () =>
    Effect.gen(function*() {
      const first = yield* Pkcs11Token.open(token.settings)
      const wallet = yield* Pkcs11WalletKeys.make(first).generate("1" as Kernel.WalletId)
      const secondScope = yield* Scope.make()
      const second = yield* Scope.extend(Pkcs11Token.open(token.settings), secondScope)
      const viaSecond = Pkcs11Signer.make(second, { sign: () => Effect.dieMessage("no local wallet here") })
      expect(TronSignature.recoverAddress(hash, yield* viaSecond.sign(wallet, hash))).toEqual(Option.some(wallet.address))
      yield* Scope.close(secondScope, Exit.void)
      const viaFirst = Pkcs11Signer.make(first, { sign: () => Effect.dieMessage("no local wallet here") })
      expect(TronSignature.recoverAddress(hash, yield* viaFirst.sign(wallet, hash))).toEqual(Option.some(wallet.address))
    }).pipe(Effect.scoped))
})
