import { Entropy, localKey, SecretBox, walletKeyContext, WalletKeys } from "@collector/core"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { Effect, Layer } from "effect"
import * as TronAddress from "./TronAddress.js"

// What noble asks for to derive a key without bias: 48 bytes for secp256k1.
const seedLength = secp256k1.lengths.seed ?? 48

/**
 * WalletKeys adapter that generates keys in this process and seals them with the SecretBox
 * before anything else sees them: callers get only the address and the sealed blob.
 */
export const make = (box: SecretBox["Type"], entropy: Entropy["Type"]): WalletKeys["Type"] => ({
  // The wallet's ID is not needed: the sealed key is bound to its address, which names it.
  generate: () => Effect.acquireUseRelease(
    // 48 bytes from the Entropy port (the OS CSPRNG; seeded only in deterministic simulations),
    // reduced into [1, n) by noble's randomSecretKey: the bias of a 384-bit reduction is ~2^-128.
    Effect.flatMap(entropy.bytes(seedLength), (seed) =>
      Effect.sync(() => {
        const secretKey = secp256k1.utils.randomSecretKey(seed)
        seed.fill(0)
        return secretKey
      })),
    (secretKey) =>
      Effect.suspend(() => {
        const address = TronAddress.fromSecretKey(secretKey)
        return Effect.map(box.seal(secretKey, walletKeyContext(address)), (sealed) => ({ address, key: localKey(sealed) }))
      }),
    // Zeroed on every exit (success, defect, interruption) so the plaintext key does not linger
    // in our buffer; SecretBox.seal has finished reading it by the time its effect completes.
    (secretKey) => Effect.sync(() => secretKey.fill(0))
  )
})

export const layer: Layer.Layer<WalletKeys, never, SecretBox | Entropy> = Layer.effect(
  WalletKeys,
  Effect.map(Effect.all([SecretBox, Entropy]), ([box, entropy]) => make(box, entropy))
)
