import { SecretBox, WalletKeys } from "@collector/core"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { Effect, Layer } from "effect"
import * as TronAddress from "./TronAddress"

/**
 * WalletKeys adapter that generates keys in this process and seals them with the SecretBox
 * before anything else sees them: callers get only the address and the sealed blob.
 */
export const make = (box: SecretBox["Type"]): WalletKeys["Type"] => ({
  generate: Effect.acquireUseRelease(
    // randomSecretKey draws from crypto.getRandomValues (a CSPRNG) and rejects-and-redraws
    // out-of-range values, so every key is uniform in [1, n).
    Effect.sync(() => secp256k1.utils.randomSecretKey()),
    (secretKey) =>
      Effect.map(box.seal(secretKey), (sealedKey) => ({ address: TronAddress.fromSecretKey(secretKey), sealedKey })),
    // Zeroed on every exit (success, defect, interruption) so the plaintext key does not linger
    // in our buffer; SecretBox.seal has finished reading it by the time its effect completes.
    (secretKey) => Effect.sync(() => secretKey.fill(0))
  )
})

export const layer: Layer.Layer<WalletKeys, never, SecretBox> = Layer.effect(WalletKeys, Effect.map(SecretBox, make))
