import { Secrets, Wallets } from "@collector/core"
import { Effect, Layer } from "effect"
import * as TronAddress from "./TronAddress.js"
import * as TronSignature from "./TronSignature.js"

/**
 * Signer adapter that opens a wallet's sealed key in memory for one signature. Reasons in
 * SigningFailed are fixed text plus public data (address, lengths): they end up in logs, so
 * they must never carry key bytes or the underlying library's messages.
 */
export const make = (box: Secrets.SecretBox["Type"]): Wallets.Signer["Type"] => ({
  sign: (wallet: { readonly address: string; readonly key: Wallets.WalletKey }, hash: Uint8Array, key = wallet.key) =>
    key.store !== "local"
      // A token's key is signed for by its own store's signer (KEY_STORE=pkcs11), never here.
      ? Effect.fail(new Wallets.SigningFailed({ reason: `the key of wallet ${wallet.address} is held in the ${key.store} key store, not the local one` }))
      : hash.length !== 32
      // Checked before the key is opened: a wrong-length input is a caller bug, not worth a decryption.
      ? Effect.fail(new Wallets.SigningFailed({ reason: `the hash to sign must be 32 bytes, got ${hash.length}` }))
      : Effect.acquireUseRelease(
        Effect.mapError(
          box.open(key.sealed, Secrets.walletKeyContext(wallet.address)),
          // The SecretBox reason is fixed text without key material, but it is not ours to
          // promise, so it is replaced rather than forwarded.
          () => new Wallets.SigningFailed({ reason: `the sealed key of wallet ${wallet.address} could not be opened` })
        ),
        (secretKey) =>
          Effect.suspend(() => {
            const derived = secretKey.length === 32 ? deriveAddress(secretKey) : undefined
            if (derived === undefined) {
              return Effect.fail(new Wallets.SigningFailed({ reason: `the sealed key of wallet ${wallet.address} is not a secp256k1 key` }))
            }
            // A row whose sealed key belongs to another wallet (a mix-up in storage or a
            // copied blob) must never sign for the address it is filed under.
            if (derived !== wallet.address) {
              return Effect.fail(new Wallets.SigningFailed({ reason: `the sealed key does not belong to wallet ${wallet.address}` }))
            }
            return Effect.try({
              try: () => TronSignature.sign(secretKey, hash),
              catch: () => new Wallets.SigningFailed({ reason: `signing for wallet ${wallet.address} failed` })
            })
          }),
        // Zeroed on every exit, including failed checks and interruption.
        (secretKey) => Effect.sync(() => secretKey.fill(0))
      )
})

/** The key's address, or undefined when the bytes are not a valid secret key (0 or >= n). */
const deriveAddress = (secretKey: Uint8Array): string | undefined => {
  try {
    return TronAddress.fromSecretKey(secretKey)
  } catch {
    return undefined
  }
}

export const layer: Layer.Layer<Wallets.Signer, never, Secrets.SecretBox> = Layer.effect(Wallets.Signer, Effect.map(Secrets.SecretBox, make))
