import { Wallets } from "@collector/core"

/** A wallet_keys row's key columns (migration 0021): a sealed key, or a token's label. */
export interface WalletKeyRow {
  readonly store: string
  readonly key_id: string | null
  readonly sealed_key: Uint8Array | null
  readonly key_label: string | null
}

/** The columns to write for a key: the other store's columns are null (the table checks it). */
export const toColumns = (key: Wallets.WalletKey) =>
  key.store === "local"
    ? { store: "local", keyId: key.sealed.keyId, sealedKey: key.sealed.blob, keyLabel: null }
    : { store: "pkcs11", keyId: null, sealedKey: null, keyLabel: key.label }

/** The key a row holds; a row the table's check should have refused is a defect, said plainly. */
export const fromRow = (walletId: string, row: WalletKeyRow): Wallets.WalletKey => {
  if (row.store === "local" && row.key_id !== null && row.sealed_key !== null) {
    return Wallets.localKey({ keyId: row.key_id, blob: new Uint8Array(row.sealed_key) })
  }
  if (row.store === "pkcs11" && row.key_label !== null) return Wallets.tokenKey(row.key_label)
  throw new Error(`wallet ${walletId} has a key row of store ${row.store} without its columns`)
}
