import type { WalletId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"

export type CollectionStatus = "idle" | "collecting"

export interface Wallet {
  readonly id: WalletId
  readonly network: Network
  readonly address: string
  readonly customId: string
  readonly collectionStatus: CollectionStatus
  /** Null until the first balance sync (then `balanceBlock` > 0). */
  readonly balanceUsdt: bigint | null
  readonly balanceTrx: bigint | null
  readonly balanceBlock: bigint
  /** The tenant-wide collection address; empty when unbound. */
  readonly destination: string
  /** This wallet is the collection address itself (so it cannot be swept). */
  readonly isCollectionAddress: boolean
  readonly collectedUsdt: bigint
  readonly lastCollectedAt: Date | null
  readonly createdAt: Date
}

export interface WalletIdentity {
  readonly id: WalletId
  readonly address: string
  readonly customId: string
  readonly network: Network
  readonly createdAt: Date
}

/** custom_id: 1 to 32 characters (code points), no leading or trailing whitespace. */
export const isValidCustomId = (text: string): boolean => {
  const length = [...text].length
  return length >= 1 && length <= 32 && text.trim() === text
}

export type UnavailableReason = "" | "collecting" | "collection_address"

/** Why a wallet cannot start a sweep now; empty when it can. */
export const unavailableReason = (wallet: Pick<Wallet, "collectionStatus" | "isCollectionAddress">): UnavailableReason =>
  wallet.collectionStatus === "collecting" ? "collecting" : wallet.isCollectionAddress ? "collection_address" : ""
