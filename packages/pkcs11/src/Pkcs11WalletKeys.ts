import { Entropy, tokenKey, WalletKeys } from "@collector/core"
import { TronAddress } from "@collector/tron"
import { bytesToHex } from "@noble/hashes/utils.js"
import { Effect, Layer } from "effect"
import pkcs11js from "pkcs11js"
import { secp256k1Params, uncompressedPoint } from "./EcPoint.js"
import { call, callAsync, Pkcs11Token, type TokenCallFailed } from "./Pkcs11Token.js"

/** Every wallet key's label starts so: an operator can tell our objects from others in a shared token. */
export const labelPrefix = "collector-wallet-"

/**
 * WalletKeys adapter that generates each key pair inside the token: the private key is created
 * sensitive, non-extractable and private (readable by nobody, usable only after login), so no
 * process ever sees it. The address comes from the public key the token returns; the wallet row
 * keeps only the label, a random name both objects carry (CKA_LABEL and CKA_ID).
 *
 * A failure to generate is a defect for the caller (the port has no error channel): the wallet
 * is not created and the API answers 500, while the reason is logged with the return value.
 */
export const make = (token: Pkcs11Token["Type"], entropy: Entropy["Type"]): WalletKeys["Type"] => ({
  generate: Effect.gen(function*() {
    // 128 random bits: labels never collide, and a label says nothing about the wallet it names.
    const label = labelPrefix + bytesToHex(yield* entropy.bytes(16))
    const generated = yield* token.withSession((session) => generateIn(session.module, session.handle, label))
    return { address: generated, key: tokenKey(label) }
  }).pipe(Effect.catchTag("TokenCallFailed", (failed) => Effect.dieMessage(`generating a key pair in the PKCS#11 token failed (${failed.returnValue})`)))
})

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
    if (point === undefined) return yield* Effect.dieMessage(`the PKCS#11 token returned no secp256k1 public key for ${label}`)
    return TronAddress.fromPublicKey(point)
  })

export const layer: Layer.Layer<WalletKeys, never, Pkcs11Token | Entropy> = Layer.effect(
  WalletKeys,
  Effect.map(Effect.all([Pkcs11Token, Entropy]), ([token, entropy]) => make(token, entropy))
)
