/**
 * What a USDT sweep costs on TRON mainnet in late 2026: the yardstick for the default fee caps
 * and for the simulated energy provider's prices. Energy figures include the dynamic-energy
 * penalty of the day; prices are SUN.
 */
export const mainnetFees = {
  /** A transfer to an address that already holds USDT. */
  transferEnergy: 64_285n,
  /** A transfer to an address whose USDT balance is zero. */
  transferEnergyToEmpty: 130_285n,
  /** `getEnergyFee`: SUN burnt per energy unit. */
  energyFee: 100n,
  /** What energy rental providers charge per energy unit for an hour. */
  rentalPricePerEnergy: { lowest: 60n, highest: 130n },
  /** Activating an address: 1 TRX, plus 0.1 TRX when the sender has no bandwidth of its own. */
  activation: 1_100_000n,
  /** The most a rental provider is taken to charge for an activation (CatFee's quote unless configured). */
  providerActivation: 1_500_000n
} as const
