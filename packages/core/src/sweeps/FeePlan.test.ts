import { describe, expect, it } from "@effect/vitest"
import type { AccountState, ChainParameters } from "../chain/ChainModel.js"
import { defaultAutomationPolicy } from "../Settings.js"
import { bandwidthLeft, planFees, withMargin } from "./FeePlan.js"
import { mainnetFees } from "./MainnetFees.js"

const account = (changes: Partial<AccountState> = {}): AccountState => ({
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

const parameters: ChainParameters = { energyFee: 100n, bandwidthFee: 1000n, freeBandwidthPerDay: 600n, activationFee: 1_100_000n }
const policy = { maxWalletTrxFee: 15_000_000n, rentalAllowed: true }

describe("planFees", () => {
  it("adds a 10% margin to the chain's estimate, rounding up", () => {
    expect(withMargin(64_285n)).toBe(70_714n)
    expect(withMargin(100n)).toBe(110n)
    expect(withMargin(0n)).toBe(0n)
  })

  it("uses the wallet's own energy first, with a fee limit covering the whole transfer", () => {
    const plan = planFees({ account: account({ energyLimit: 80_000n, energyUsed: 5_000n, trx: 50_000_000n }), estimatedEnergy: 64_285n, parameters, policy })
    expect(plan).toEqual({ _tag: "Resources", preparedEnergy: 70_714n, feeLimit: 7_071_400n })
  })

  it("then the wallet's TRX for the WHOLE shortfall, within the cap and the balance", () => {
    const plan = planFees({ account: account({ energyLimit: 30_000n, trx: 5_000_000n }), estimatedEnergy: 64_285n, parameters, policy })
    expect(plan).toEqual({ _tag: "WalletTrx", preparedEnergy: 70_714n, feeLimit: 7_071_400n, walletTrxFee: 4_071_400n })
  })

  it("then one rental of the shortfall when the TRX would pass the cap or the balance", () => {
    const overCap = planFees({ account: account({ trx: 100_000_000n }), estimatedEnergy: 64_285n, parameters, policy: { ...policy, maxWalletTrxFee: 7_000_000n } })
    expect(overCap).toMatchObject({ _tag: "Rental", energy: 70_714n, activate: false })
    const short = planFees({ account: account({ energyLimit: 10_000n, trx: 1_000_000n }), estimatedEnergy: 64_285n, parameters, policy })
    expect(short).toMatchObject({ _tag: "Rental", energy: 60_714n, activate: false })
  })

  it("is unpayable without rental, saying why", () => {
    const plan = planFees({ account: account({ trx: 1n }), estimatedEnergy: 64_285n, parameters, policy: { ...policy, rentalAllowed: false } })
    expect(plan._tag).toBe("Unpayable")
    expect(plan._tag === "Unpayable" && plan.reason).toContain("wallet holds 1")
  })

  it("an inactive wallet can only be served by a rental that activates it", () => {
    const inactive = account({ activated: false, freeBandwidthLimit: 0n })
    expect(planFees({ account: inactive, estimatedEnergy: 130_285n, parameters, policy })).toMatchObject({ _tag: "Rental", activate: true, energy: 143_314n })
    expect(planFees({ account: inactive, estimatedEnergy: 130_285n, parameters, policy: { ...policy, rentalAllowed: false } })._tag).toBe("Unpayable")
  })

  it("counts free and staked bandwidth, never a negative remainder", () => {
    expect(bandwidthLeft(account({ freeBandwidthUsed: 700n, stakedBandwidthLimit: 400n, stakedBandwidthUsed: 100n }))).toBe(300n)
  })
})

describe("the default automation policy against mainnet fees", () => {
  const mainnet: ChainParameters = { ...parameters, energyFee: mainnetFees.energyFee, activationFee: mainnetFees.activation }
  // The costliest ordinary sweep: into a collection address that holds no USDT yet.
  const costliest = mainnetFees.transferEnergyToEmpty

  it("lets a wallet burn its own TRX for the costliest transfer", () => {
    const plan = planFees({ account: account({ trx: 100_000_000n }), estimatedEnergy: costliest, parameters: mainnet, policy: defaultAutomationPolicy })
    expect(plan._tag).toBe("WalletTrx")
  })

  it("lets a rental with activation at the dearest provider price through the rental cap", () => {
    const policy = { ...defaultAutomationPolicy, rentalAllowed: true }
    const plan = planFees({ account: account({ activated: false }), estimatedEnergy: costliest, parameters: mainnet, policy })
    if (plan._tag !== "Rental") return expect.fail(`expected a rental plan, got ${plan._tag}`)
    const dearest = plan.energy * mainnetFees.rentalPricePerEnergy.highest + mainnetFees.providerActivation
    expect(dearest).toBeLessThanOrEqual(defaultAutomationPolicy.maxRentalCost)
  })
})
