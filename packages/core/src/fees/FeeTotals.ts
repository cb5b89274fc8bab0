import type { FeeEntry, FeeTotals } from "./FeeEntry.js"

export const noFees: FeeTotals = {
  entries: 0,
  energy: { own: 0n, delegated: 0n, rented: 0n, burned: 0n },
  networkEnergyFee: 0n,
  networkBandwidthFee: 0n,
  providerEnergyCost: 0n,
  providerActivationCost: 0n,
  lendingFee: 0n,
  burnEquivalent: 0n,
  saving: 0n
}

/** Adds one entry to running totals (the memory ledger's sum; PostgreSQL sums in SQL). */
export const addEntry = (totals: FeeTotals, e: FeeEntry): FeeTotals => ({
  entries: totals.entries + 1,
  energy: {
    own: totals.energy.own + e.energy.own,
    delegated: totals.energy.delegated + e.energy.delegated,
    rented: totals.energy.rented + e.energy.rented,
    burned: totals.energy.burned + e.energy.burned
  },
  networkEnergyFee: totals.networkEnergyFee + e.networkEnergyFee,
  networkBandwidthFee: totals.networkBandwidthFee + e.networkBandwidthFee,
  providerEnergyCost: totals.providerEnergyCost + e.providerEnergyCost,
  providerActivationCost: totals.providerActivationCost + e.providerActivationCost,
  lendingFee: totals.lendingFee + e.lendingFee,
  burnEquivalent: totals.burnEquivalent + e.burnEquivalent,
  saving: totals.saving + e.saving
})

/** The saving as a percentage of the burn-equivalent, to two decimals (bigint arithmetic); null when nothing was used. */
export const savingPercent = (totals: FeeTotals): string | null => {
  if (totals.burnEquivalent === 0n) return null
  const hundredths = (totals.saving * 10_000n) / totals.burnEquivalent
  const sign = hundredths < 0n ? "-" : ""
  const abs = hundredths < 0n ? -hundredths : hundredths
  return `${sign}${abs / 100n}.${(abs % 100n).toString().padStart(2, "0")}`
}
