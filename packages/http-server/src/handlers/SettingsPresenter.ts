import type { Addresses, Automation } from "@collector/api"
import type { Kernel, Settings } from "@collector/core"

export const presentAddresses = (network: Kernel.Network, c: Settings.CollectionSetting): typeof Addresses.Type => ({
  network,
  collection_address: c.address,
  collection_wallet_id: c.walletId,
  updated_at: c.updatedAt?.toISOString() ?? null
})

export const presentAutomation = (network: Kernel.Network, p: Settings.AutomationPolicy): typeof Automation.Type => ({
  network,
  enabled: p.enabled,
  threshold: p.threshold.toString(),
  interval_minutes: p.intervalMinutes,
  max_wallet_trx_fee: p.maxWalletTrxFee.toString(),
  max_rental_cost: p.maxRentalCost.toString(),
  rental_allowed: p.rentalAllowed,
  updated_at: p.updatedAt?.toISOString() ?? null
})
