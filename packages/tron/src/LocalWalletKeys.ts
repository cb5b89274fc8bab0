import { Kernel, Secrets, Wallets } from "@collector/core"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { Effect, Layer } from "effect"
import * as TronAddress from "./TronAddress.js"

// What noble asks for to derive a key without bias: 48 bytes for secp256k1.
const seedLength = secp256k1.lengths.seed ?? 48

/**
 * WalletKeys adapter that generates keys in this process and seals them with the SecretBox
 * before anything else sees them: callers get only the address and the sealed blob.
 */
export const make = (box: Secrets.SecretBox["Type"], entropy: Kernel.Entropy["Type"]): Wallets.WalletKeys["Type"] => ({
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
        return Effect.map(box.seal(secretKey, Secrets.walletKeyContext(address)), (sealed) => ({ address, key: Wallets.localKey(sealed) }))
      }),
    // Zeroed on every exit (success, defect, interruption) so the plaintext key does not linger
    // in our buffer; SecretBox.seal has finished reading it by the time its effect completes.
    (secretKey) => Effect.sync(() => secretKey.fill(0))
  )
})

export const layer: Layer.Layer<Wallets.WalletKeys, never, Secrets.SecretBox | Kernel.Entropy> = Layer.effect(
  Wallets.WalletKeys,
  Effect.map(Effect.all([Secrets.SecretBox, Kernel.Entropy]), ([box, entropy]) => make(box, entropy))
)
