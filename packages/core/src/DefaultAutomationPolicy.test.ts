import { describe, expect, it } from "@effect/vitest"
import type { AccountState, ChainParameters } from "./chain/ChainModel"
import { defaultAutomationPolicy } from "./Settings"
import { planFees } from "./sweeps/FeePlan"
import { mainnetFees } from "./sweeps/MainnetFees"

const emptyWallet = (changes: Partial<AccountState>): AccountState => ({
  address: "TWallet",
  activated: true,
  trx: 0n,
  usdt: 5_000_000n,
  energyLimit: 0n,
  energyUsed: 0n,
  freeBandwidthLimit: 600n,
  freeBandwidthUsed: 0n,
  stakedBandwidthLimit: 0n,
  stakedBandwidthUsed: 0n,
  atBlock: 10n,
  ...changes
})

const mainnet: ChainParameters = { energyFee: mainnetFees.energyFee, bandwidthFee: 1000n, freeBandwidthPerDay: 600n, activationFee: mainnetFees.activation }

// The costliest ordinary sweep: into a collection address that holds no USDT yet.
const costliest = mainnetFees.transferEnergyToEmpty

describe("the default automation policy against mainnet fees", () => {
  it("lets a wallet burn its own TRX for the costliest transfer", () => {
    const plan = planFees({ account: emptyWallet({ trx: 100_000_000n }), estimatedEnergy: costliest, parameters: mainnet, policy: defaultAutomationPolicy })
    expect(plan._tag).toBe("WalletTrx")
  })

  it("lets a rental with activation at the dearest provider price through the rental cap", () => {
    const plan = planFees({
      account: emptyWallet({ activated: false }),
      estimatedEnergy: costliest,
      parameters: mainnet,
      policy: { ...defaultAutomationPolicy, rentalAllowed: true }
    })
    if (plan._tag !== "Rental") return expect.fail(`expected a rental plan, got ${plan._tag}`)
    const dearest = plan.energy * mainnetFees.rentalPricePerEnergy.highest + mainnetFees.activation
    expect(dearest).toBeLessThanOrEqual(defaultAutomationPolicy.maxRentalCost)
  })
})
