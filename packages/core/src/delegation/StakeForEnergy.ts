import type { StakeTotals } from "../chain/ChainModel.js"

/** One TRX in SUN, and the least stake java-tron lets an owner delegate. */
export const sunPerTrx = 1_000_000n


/**
 * The SUN of stake to delegate so the receiver gains at least `energy`: java-tron gives a
 * receiver floor(whole TRX × TotalEnergyLimit / TotalEnergyWeight), so the whole TRX are rounded
 * up, and never below the 1 TRX minimum. Undefined when the network reports no energy weight.
 */
export const stakeForEnergy = (energy: bigint, totals: StakeTotals): bigint | undefined => {
  if (totals.totalEnergyLimit <= 0n || totals.totalEnergyWeight <= 0n) return undefined
  if (energy <= 0n) return sunPerTrx
  const trx = (energy * totals.totalEnergyWeight + totals.totalEnergyLimit - 1n) / totals.totalEnergyLimit
  return (trx < 1n ? 1n : trx) * sunPerTrx
}

/** Energy a delegation of `balance` SUN gives its receiver. */
export const energyOfStake = (balance: bigint, totals: StakeTotals): bigint =>
  totals.totalEnergyWeight <= 0n ? 0n : ((balance / sunPerTrx) * totals.totalEnergyLimit) / totals.totalEnergyWeight
