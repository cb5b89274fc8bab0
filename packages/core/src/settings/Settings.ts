import type { WalletId } from "../kernel/Ids.js"

/** Where sweeps send USDT: an external TRON address or one of the tenant's own wallets. */
export interface CollectionSetting {
  /** Empty while unbound. */
  readonly address: string
  /** Set when the address is one of the tenant's wallets (then that wallet is unavailable). */
  readonly walletId: WalletId | null
  readonly updatedAt: Date | null
}

/** The automatic collection policy, and the fee caps every sweep of the scope obeys. */
export interface AutomationPolicy {
  readonly enabled: boolean
  /** Sweep a wallet once its synchronised USDT balance reaches this (smallest unit). */
  readonly threshold: bigint
  readonly intervalMinutes: number
  /** Most TRX (SUN) a wallet may burn for its energy shortfall in one sweep. */
  readonly maxWalletTrxFee: bigint
  /** Most a sweep may pay an energy provider (SUN), activation included. */
  readonly maxRentalCost: bigint
  readonly rentalAllowed: boolean
  readonly updatedAt: Date | null
}

export interface WebhookConfig {
  readonly url: string
  readonly enabled: boolean
  readonly updatedAt: Date | null
}

export interface TenantSettings {
  readonly collection: CollectionSetting
  readonly automation: AutomationPolicy
  readonly webhook: WebhookConfig
}

/** A scope's settings as stored: the automation policy is null until the tenant sets one. */
export interface StoredSettings {
  readonly collection: CollectionSetting
  readonly automation: AutomationPolicy | null
  readonly webhook: WebhookConfig
}

/**
 * The policy of a scope until its tenant sets one. The caps let the costliest ordinary sweep of
 * today's mainnet through (see `mainnetFees`): a transfer to a collection address that holds
 * no USDT yet, 130,285 energy plus the 10% margin, burnt at 100 SUN per energy (14.33 TRX under
 * the 15 TRX wallet cap) or rented at up to 130 SUN per energy with an activation at up to
 * 1.5 TRX (20.13 TRX under the 21 TRX rental cap).
 */
export const defaultAutomationPolicy: AutomationPolicy = {
  enabled: false,
  threshold: 100_000_000n,
  intervalMinutes: 60,
  maxWalletTrxFee: 15_000_000n,
  maxRentalCost: 21_000_000n,
  rentalAllowed: false,
  updatedAt: null
}

export const automationIntervalBounds = { min: 5, max: 10_080 } as const

/**
 * The settings a scope works with. A policy never set is the running version's default, not
 * whatever the stored columns held when the row was created (another setting may have created it).
 */
export const effectiveSettings = (stored: StoredSettings): TenantSettings => ({
  ...stored,
  automation: stored.automation ?? defaultAutomationPolicy
})
