import type { TenantId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"
import type { AutomationPolicy } from "../settings/Settings.js"
import type { TenantSettingsRow } from "./MemoryTables.js"

/** A scope's settings row as its first write creates it: the table's column defaults (migrations 0003, 0008, 0012, 0014). */
export const newSettingsRow = (tenantId: TenantId, network: Network): TenantSettingsRow => ({
  tenantId,
  network,
  collectionAddress: "",
  collectionWalletId: null,
  collectionUpdatedAt: null,
  automationEnabled: false,
  automationThreshold: 100_000_000n,
  automationIntervalMinutes: 60,
  maxWalletTrxFee: 15_000_000n,
  maxRentalCost: 21_000_000n,
  rentalAllowed: false,
  automationUpdatedAt: null,
  webhookUrl: "",
  webhookEnabled: false,
  webhookUpdatedAt: null,
  automationLastRunAt: null,
  automationRoundClaimedUntil: null
})

/** The automation policy the row stores (whether or not the tenant has set it). */
export const storedPolicy = (row: TenantSettingsRow): AutomationPolicy => ({
  enabled: row.automationEnabled,
  threshold: row.automationThreshold,
  intervalMinutes: row.automationIntervalMinutes,
  maxWalletTrxFee: row.maxWalletTrxFee,
  maxRentalCost: row.maxRentalCost,
  rentalAllowed: row.rentalAllowed,
  updatedAt: row.automationUpdatedAt
})
