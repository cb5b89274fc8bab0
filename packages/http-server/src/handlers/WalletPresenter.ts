import type { PreviewItem, WalletIdentity as WireIdentity, WalletItem as WireItem } from "@collector/api"
import { Wallets } from "@collector/core"

/** Balances are null until the first sync, whatever the columns hold. */
const balances = (w: Wallets.Wallet) => ({
  balance_usdt: w.balanceBlock === 0n ? null : w.balanceUsdt?.toString() ?? null,
  balance_trx: w.balanceBlock === 0n ? null : w.balanceTrx?.toString() ?? null,
  balance_block: w.balanceBlock.toString()
})

export const presentIdentity = (w: Wallets.WalletIdentity): typeof WireIdentity.Type => ({
  id: w.id,
  address: w.address,
  custom_id: w.customId,
  chain: "TRON",
  created_at: w.createdAt.toISOString(),
  network: w.network
})

export const presentWallet = (w: Wallets.Wallet): typeof WireItem.Type => ({
  id: w.id,
  address: w.address,
  custom_id: w.customId,
  chain: "TRON",
  network: w.network,
  collection_status: w.collectionStatus,
  ...balances(w),
  destination: w.destination,
  collected_usdt: w.collectedUsdt.toString(),
  last_collected_at: w.lastCollectedAt?.toISOString() ?? null,
  created_at: w.createdAt.toISOString()
})

export const presentPreview = (w: Wallets.Wallet): typeof PreviewItem.Type => {
  const reason = Wallets.unavailableReason(w)
  return {
    id: w.id,
    address: w.address,
    custom_id: w.customId,
    collection_status: w.collectionStatus,
    ...balances(w),
    available: reason === "",
    unavailable_reason: reason
  }
}
