import { describe, expect, it } from "@effect/vitest"
import { energyOfStake, stakeForEnergy } from "./StakeForEnergy.js"

// The simulator's default totals (10 energy per TRX) and a mainnet-like reading
// (TotalEnergyLimit 180e9, TotalEnergyWeight 19.2e9: 9.375 energy per TRX).
const tenPerTrx = { totalEnergyLimit: 180_000_000_000n, totalEnergyWeight: 18_000_000_000n }
const mainnetLike = { totalEnergyLimit: 180_000_000_000n, totalEnergyWeight: 19_200_000_000n }

describe("stakeForEnergy", () => {
  it("rounds whole TRX up so the receiver gains at least the energy, never below 1 TRX", () => {
    // energy → SUN, worked by hand: ceil(energy × weight / limit) TRX.
    const table: ReadonlyArray<readonly [bigint, typeof tenPerTrx, bigint]> = [
      [64_285n, tenPerTrx, 6_429_000_000n], // 6,428.5 → 6,429
      [130_285n, tenPerTrx, 13_029_000_000n], // 13,028.5 → 13,029
      [64_280n, tenPerTrx, 6_428_000_000n], // exact
      [1n, tenPerTrx, 1_000_000n], // 0.1 → 1 TRX minimum
      [64_285n, mainnetLike, 6_858_000_000n] // 64,285 / 9.375 = 6,857.07 → 6,858
    ]
    for (const [energy, totals, sun] of table) expect(stakeForEnergy(energy, totals)).toBe(sun)
  })

  it("gives at least the energy asked for, which one TRX less would not", () => {
    for (const energy of [64_285n, 130_285n, 31_895n]) {
      const sun = stakeForEnergy(energy, mainnetLike)!
      expect(energyOfStake(sun, mainnetLike) >= energy).toBe(true)
      expect(energyOfStake(sun - 1_000_000n, mainnetLike) < energy).toBe(true)
    }
  })

  it("has no answer when the network reports no energy weight", () => {
    expect(stakeForEnergy(64_285n, { totalEnergyLimit: 180_000_000_000n, totalEnergyWeight: 0n })).toBeUndefined()
  })
})
