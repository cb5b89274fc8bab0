import { Wallets } from "@collector/core"
import { TronAddress } from "@collector/tron"
import { Effect, Layer } from "effect"
import pkcs11js from "pkcs11js"
import { uncompressedPoint } from "./EcPoint.js"
import { isSessionLost } from "./Pkcs11Failure.js"
import { call, callAsync, Pkcs11Token, type TokenCallFailed, type TokenSession } from "./Pkcs11Token.js"
import { fromTokenSignature } from "./TokenSignature.js"

/** A wallet key as found in the token: its private key object and the public key beside it. */
interface FoundKey {
  readonly privateKey: pkcs11js.Handle
  readonly publicKey: Uint8Array
  readonly address: string
}

// Found keys are kept: finding an object by label scans the token's objects (SoftHSM keeps one
// file per object), too slow to repeat for every signature of a large token. Bounded so a token
// with very many wallets cannot grow the process without limit; a lost session clears it.
const maxCached = 100_000

/**
 * Signer adapter for wallets whose key is in the PKCS#11 token (store `pkcs11`): CKM_ECDSA over
 * the transaction id inside the token, then low S and the recovery id as the local signer gives
 * them. Other wallets (store `local`) go to `local`, so existing wallets keep signing after the
 * configured store changes. Reasons are fixed text plus public data (address, label, CKR names).
 */
export const make = (token: Pkcs11Token["Type"], local: Wallets.Signer["Type"]): Wallets.Signer["Type"] => {
  const found = new Map<string, FoundKey>()

  const lookUp = (label: string) =>
    Effect.suspend(() => {
      const cached = found.get(label)
      if (cached !== undefined) return Effect.succeed(cached)
      return Effect.tap(token.withSession((session) => findKey(session, label)), (key) =>
        Effect.sync(() => {
          if (key === undefined) return
          if (found.size >= maxCached) found.clear()
          found.set(label, key)
        }))
    })

  const signOnce = (wallet: { readonly address: string }, label: string, hash: Uint8Array) =>
    Effect.gen(function*() {
      const key = yield* lookUp(label)
      if (key === undefined) {
        return yield* Effect.fail(new Wallets.SigningFailed({ reason: `no key labelled ${label} for wallet ${wallet.address} is in the PKCS#11 token` }))
      }
      // As the local signer: a label filed under another wallet must never sign for it.
      if (key.address !== wallet.address) {
        return yield* Effect.fail(new Wallets.SigningFailed({ reason: `the token's key ${label} does not belong to wallet ${wallet.address}` }))
      }
      const raw = yield* token.withSession((session) =>
        Effect.zipRight(
          call(() => session.module.C_SignInit(session.handle, { mechanism: pkcs11js.CKM_ECDSA }, key.privateKey)),
          callAsync(() => session.module.C_SignAsync(session.handle, Buffer.from(hash), Buffer.alloc(72)))
        ))
      const signature = fromTokenSignature(raw, hash, key.publicKey)
      if (signature === undefined) {
        return yield* Effect.fail(new Wallets.SigningFailed({ reason: `the PKCS#11 token's signature for wallet ${wallet.address} does not recover its key` }))
      }
      return signature
    }).pipe(
      // Object handles do not outlive the login: after the sessions were lost, the cached one is
      // stale (CKR_OBJECT_HANDLE_INVALID), so it is dropped and the key found again.
      Effect.tapError((failed) => (failed._tag === "TokenCallFailed" ? Effect.sync(() => found.delete(label)) : Effect.void))
    )

  const signWith = (wallet: { readonly address: string }, label: string, hash: Uint8Array) =>
    signOnce(wallet, label, hash).pipe(
      Effect.retry({ while: (failed) => failed._tag === "TokenCallFailed" && isSessionLost(failed), times: 1 }),
      Effect.catchTag("TokenCallFailed", (failed) =>
        Effect.fail(new Wallets.SigningFailed({ reason: `the PKCS#11 token could not sign for wallet ${wallet.address} (${failed.returnValue})` })))
    )

  return {
    sign: (wallet: { readonly address: string; readonly key: Wallets.WalletKey }, hash: Uint8Array) =>
      wallet.key.store === "local"
        ? local.sign(wallet, hash)
        : hash.length !== 32
        ? Effect.fail(new Wallets.SigningFailed({ reason: `the hash to sign must be 32 bytes, got ${hash.length}` }))
        : signWith(wallet, wallet.key.label, hash)
  }
}

/** The private key labelled `label` and its public key's address, or undefined when either is missing. */
const findKey = (session: TokenSession, label: string): Effect.Effect<FoundKey | undefined, TokenCallFailed> =>
  Effect.gen(function*() {
    const privateKey = yield* findOne(session, pkcs11js.CKO_PRIVATE_KEY, label)
    const publicHandle = yield* findOne(session, pkcs11js.CKO_PUBLIC_KEY, label)
    if (privateKey === undefined || publicHandle === undefined) return undefined
    const [attribute] = yield* call(() => session.module.C_GetAttributeValue(session.handle, publicHandle, [{ type: pkcs11js.CKA_EC_POINT }]))
    const publicKey = attribute?.value === undefined ? undefined : uncompressedPoint(attribute.value)
    if (publicKey === undefined) return undefined
    return { privateKey, publicKey, address: TronAddress.fromPublicKey(publicKey) }
  })

/** The one object of `objectClass` labelled `label`; undefined when there is none or more than one. */
const findOne = (session: TokenSession, objectClass: number, label: string) =>
  Effect.acquireUseRelease(
    call(() =>
      session.module.C_FindObjectsInit(session.handle, [
        { type: pkcs11js.CKA_CLASS, value: objectClass },
        { type: pkcs11js.CKA_LABEL, value: label }
      ])),
    // Two objects under one label would make the key ambiguous: refuse rather than pick one.
    () => Effect.map(call(() => session.module.C_FindObjects(session.handle, 2)), (handles) => (handles.length === 1 ? handles[0] : undefined)),
    () => Effect.ignore(call(() => session.module.C_FindObjectsFinal(session.handle)))
  )

export const layer = (local: Layer.Layer<Wallets.Signer>): Layer.Layer<Wallets.Signer, never, Pkcs11Token> =>
  Layer.effect(Wallets.Signer, Effect.map(Effect.all([Pkcs11Token, Effect.provide(Wallets.Signer, local)]), ([token, localSigner]) => make(token, localSigner)))
