import { Context, Data, type Effect } from "effect"
import type { WalletId } from "../kernel/Ids.js"
import type { WalletKey } from "./WalletKey.js"

/** A freshly generated wallet: its public address and where its private key is (sealed, or a token's label). */
export interface GeneratedWallet {
  readonly address: string
  readonly key: WalletKey
}

/**
 * The key store cannot make a key now (a token absent, its session lost, a label already taken):
 * the wallet is not created and the tenant is asked to retry. `reason` is for the operator's log.
 */
export class KeyGenerationFailed extends Data.TaggedError("KeyGenerationFailed")<{ readonly reason: string }> {
  override get message() {
    return `the key store cannot generate a key: ${this.reason}`
  }
}

/**
 * Port: creates wallet key pairs. The private key never leaves the adapter unsealed, so the
 * domain only ever holds an address and an opaque sealed blob or token label.
 */
export class WalletKeys extends Context.Tag("@collector/core/WalletKeys")<
  WalletKeys,
  {
    /** A key pair for the wallet that will have `walletId` (drawn before the wallet is stored, so a token can label the key by it). */
    readonly generate: (walletId: WalletId) => Effect.Effect<GeneratedWallet, KeyGenerationFailed>
  }
>() {}

export class SigningFailed extends Data.TaggedError("SigningFailed")<{ readonly reason: string }> {}

/**
 * Port: signs a transaction hash with a wallet's key. The local adapter opens the sealed key in
 * memory for the one signature; a KMS or HSM adapter would hold the key itself.
 */
export class Signer extends Context.Tag("@collector/core/Signer")<
  Signer,
  {
    /** Returns the 65-byte r || s || v signature of a 32-byte hash. */
    readonly sign: (wallet: { readonly address: string; readonly key: WalletKey }, hash: Uint8Array) => Effect.Effect<Uint8Array, SigningFailed>
  }
>() {}
