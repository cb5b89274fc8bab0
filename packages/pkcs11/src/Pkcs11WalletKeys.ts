import { type Kernel, Wallets } from "@collector/core"
import { TronAddress } from "@collector/tron"
import { Effect, Layer } from "effect"
import pkcs11js from "pkcs11js"
import { secp256k1Params, uncompressedPoint } from "./EcPoint.js"
import { defaultLabelPrefix } from "./Pkcs11Settings.js"
import { call, callAsync, Pkcs11Token, TokenCallFailed, type TokenSession } from "./Pkcs11Token.js"

/**
 * WalletKeys adapter that generates each key pair inside the token: the private key is created
 * sensitive, non-extractable and private (readable by nobody, usable only after login), so no
 * process ever sees it. The address comes from the public key the token returns; the wallet row
 * keeps only the label, the prefix and the wallet's ID, which both objects carry (CKA_LABEL and
 * CKA_ID), so an operator can find a wallet's key in the token by the wallet alone.
 *
 * A label already in the token is never reused: two objects under one label would make the key
 * ambiguous (the signer refuses them), so the wallet is refused instead, with a reason naming the
 * likely cause. Any failure is `KeyGenerationFailed`: the wallet is not created, the tenant gets a
 * 503 to retry, the reason goes to the log.
 */
export const make = (token: Pkcs11Token["Type"], labelPrefix: string = defaultLabelPrefix): Wallets.WalletKeys["Type"] => ({
  generate: (walletId: Kernel.WalletId) => generateLabelled(token, labelPrefix + walletId)
})

/**
 * A key pair made inside the token under `label` (both objects carry it as CKA_LABEL and CKA_ID),
 * as a wallet's is: for keys that belong to no wallet, such as a resource account's, whose label
 * the caller composes. The same refusal of a label already in the token and the same
 * `KeyGenerationFailed` apply.
 */
export const generateLabelled = (token: Pkcs11Token["Type"], label: string): Effect.Effect<Wallets.GeneratedWallet, Wallets.KeyGenerationFailed> =>
  token.withSession((session) =>
    Effect.gen(function*() {
      if (yield* labelTaken(session, label)) return { taken: true } as const
      return { taken: false, address: yield* generateIn(session.module, session.handle, label) } as const
    })
  ).pipe(
    Effect.mapError((failed) => new Wallets.KeyGenerationFailed({ reason: `the PKCS#11 token failed to generate a key pair (${failed.returnValue})` })),
    Effect.flatMap((outcome) =>
      outcome.taken
        ? Effect.fail(new Wallets.KeyGenerationFailed({ reason: `the token already holds an object labelled ${label}: another deployment may share this token (give each its own PKCS11_LABEL_PREFIX)` }))
        : Effect.succeed({ address: outcome.address, key: Wallets.tokenKey(label) }))
  )

/** Whether any object (key or otherwise) of the token carries `label`. */
const labelTaken = (session: TokenSession, label: string): Effect.Effect<boolean, TokenCallFailed> =>
  Effect.acquireUseRelease(
    call(() => session.module.C_FindObjectsInit(session.handle, [{ type: pkcs11js.CKA_LABEL, value: label }])),
    () => Effect.map(call(() => session.module.C_FindObjects(session.handle, 1)), (handles) => handles.length > 0),
    () => Effect.ignore(call(() => session.module.C_FindObjectsFinal(session.handle)))
  )

const generateIn = (module: pkcs11js.PKCS11, session: pkcs11js.Handle, label: string): Effect.Effect<string, TokenCallFailed> =>
  Effect.gen(function*() {
    const id = Buffer.from(label)
    const keys = yield* callAsync(() =>
      module.C_GenerateKeyPairAsync(session, { mechanism: pkcs11js.CKM_EC_KEY_PAIR_GEN }, [
        { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PUBLIC_KEY },
        { type: pkcs11js.CKA_KEY_TYPE, value: pkcs11js.CKK_EC },
        { type: pkcs11js.CKA_TOKEN, value: true },
        { type: pkcs11js.CKA_PRIVATE, value: false },
        { type: pkcs11js.CKA_VERIFY, value: true },
        { type: pkcs11js.CKA_EC_PARAMS, value: Buffer.from(secp256k1Params) },
        { type: pkcs11js.CKA_LABEL, value: label },
        { type: pkcs11js.CKA_ID, value: id }
      ], [
        { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PRIVATE_KEY },
        { type: pkcs11js.CKA_KEY_TYPE, value: pkcs11js.CKK_EC },
        { type: pkcs11js.CKA_TOKEN, value: true },
        { type: pkcs11js.CKA_PRIVATE, value: true },
        { type: pkcs11js.CKA_SENSITIVE, value: true },
        { type: pkcs11js.CKA_EXTRACTABLE, value: false },
        { type: pkcs11js.CKA_SIGN, value: true },
        { type: pkcs11js.CKA_LABEL, value: label },
        { type: pkcs11js.CKA_ID, value: id }
      ]))
    const [attribute] = yield* call(() => module.C_GetAttributeValue(session, keys.publicKey, [{ type: pkcs11js.CKA_EC_POINT }]))
    const point = attribute?.value === undefined ? undefined : uncompressedPoint(attribute.value)
    if (point === undefined) return yield* new TokenCallFailed({ returnValue: "no secp256k1 public key returned" })
    return TronAddress.fromPublicKey(point)
  })

export const layer = (labelPrefix: string = defaultLabelPrefix): Layer.Layer<Wallets.WalletKeys, never, Pkcs11Token> =>
  Layer.effect(Wallets.WalletKeys, Effect.map(Pkcs11Token, (token) => make(token, labelPrefix)))
