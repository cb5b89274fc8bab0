import type { WalletId } from "../kernel/Ids.js"
import type { CollectionSetting } from "../settings/Settings.js"
import type { Wallet } from "../wallets/Wallet.js"
import type { SweepItemFailure } from "./SweepErrors.js"

export interface Ineligible {
  readonly failure: SweepItemFailure
  readonly message: string
}

export const walletNotFound = (id: WalletId): Ineligible => ({ failure: "WALLET_NOT_FOUND", message: `wallet ${id} not found` })

export const walletCollecting = (id: WalletId): Ineligible => ({
  failure: "WALLET_COLLECTING",
  message: `wallet ${id} already has an unfinished sweep task`
})

/**
 * Why a wallet of the scope cannot get a task now, or null when it can. Checked in this order:
 * no collection address, the wallet is the collection address, an unfinished task exists.
 */
export const ineligibility = (wallet: Wallet, collection: CollectionSetting): Ineligible | null => {
  if (collection.address === "") {
    return { failure: "COLLECTION_ADDRESS_NOT_SET", message: "no collection address is set for this network" }
  }
  if (wallet.isCollectionAddress || wallet.address === collection.address || wallet.id === collection.walletId) {
    return { failure: "WALLET_IS_COLLECTION_ADDRESS", message: `wallet ${wallet.id} is the collection address` }
  }
  return wallet.collectionStatus === "collecting" ? walletCollecting(wallet.id) : null
}
