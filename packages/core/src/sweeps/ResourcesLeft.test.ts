import { describe, expect, it } from "@effect/vitest"
import { walletReading } from "./testing/WalletReading.js"
import { withMargin } from "./EnergyMargin.js"
import { bandwidthLeft, energyLeft, energyToAdd } from "./ResourcesLeft.js"

const account = walletReading

describe("what a sweep prepares for and what the wallet has left", () => {
  it("adds a 10% margin to the chain's estimate, rounding up", () => {
    expect(withMargin(64_285n)).toBe(70_714n)
    expect(withMargin(130_285n)).toBe(143_314n)
    expect(withMargin(100n)).toBe(110n)
    expect(withMargin(0n)).toBe(0n)
  })

  it("counts energy left, never a negative remainder", () => {
    expect(energyLeft(account({ energyLimit: 80_000n, energyUsed: 5_000n }))).toBe(75_000n)
    expect(energyLeft(account({ energyLimit: 1_000n, energyUsed: 5_000n }))).toBe(0n)
  })

  it("counts free and staked bandwidth, never a negative remainder", () => {
    expect(bandwidthLeft(account({ freeBandwidthUsed: 700n, stakedBandwidthLimit: 400n, stakedBandwidthUsed: 100n }))).toBe(300n)
    expect(bandwidthLeft(account({ freeBandwidthUsed: 100n, stakedBandwidthLimit: 400n }))).toBe(900n)
  })

  it("energy a delegation must add counts usage not yet recovered (delegated energy taken back after use)", () => {
    // Simulator seed 12: the wallet used 64,285 lent energy, the loan was taken back; the next sweep prepares 70,714.
    expect(energyToAdd(account({ energyLimit: 0n, energyUsed: 64_285n }), 70_714n)).toBe(134_999n)
    expect(energyToAdd(account({ energyLimit: 30_000n, energyUsed: 5_000n }), 70_714n)).toBe(45_714n)
    expect(energyToAdd(account({ energyLimit: 80_000n }), 70_714n)).toBe(0n)
  })
})
