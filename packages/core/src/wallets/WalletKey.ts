import type { Sealed } from "../secrets/SecretBox.js"

/** Where a wallet's private key lives: sealed in our database, or inside a PKCS#11 token. */
export type KeyStoreName = "local" | "pkcs11"

export const keyStoreNames: ReadonlyArray<KeyStoreName> = ["local", "pkcs11"]

/** A key generated in this process and sealed under the master key at once. */
export interface LocalKey {
  readonly store: "local"
  readonly sealed: Sealed
}

/**
 * A key generated inside a PKCS#11 token that never leaves it: the row holds only the label
 * the token's private key object is found by (the label is public, it unlocks nothing alone).
 */
export interface TokenKey {
  readonly store: "pkcs11"
  readonly label: string
}

/** What the database holds of a wallet's key: a sealed blob or a token label, never both. */
export type WalletKey = LocalKey | TokenKey

export const localKey = (sealed: Sealed): LocalKey => ({ store: "local", sealed })

export const tokenKey = (label: string): TokenKey => ({ store: "pkcs11", label })
