import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { AccountState, ChainParameters } from "../chain/ChainModel.js"
import { walletReading } from "./testing/WalletReading.js"
import { defaultAutomationPolicy } from "../settings/Settings.js"
import { decideEnergy, ownEnergyDecision } from "./EnergyDecision.js"
import { mainnetFees } from "./MainnetFees.js"
import type { RentalDecision, RentalPlan } from "./RentalDecision.js"

/**
 * The one energy decision against the contract's order and mainnet's fees, with hand-written
 * figures: 64,285 energy with the 10% margin is 70,714 (7,071,400 SUN at 100 SUN per energy).
 */
const account = walletReading

const mainnet: ChainParameters = { energyFee: mainnetFees.energyFee, bandwidthFee: 1000n, freeBandwidthPerDay: 600n, activationFee: mainnetFees.activation }

/** A provider that quotes the plan at the dearest market price, activation included when asked. */
const dearestProvider = (plan: RentalPlan) =>
  Effect.succeed<RentalDecision>({
    _tag: "Quoted",
    quote: {
      energy: plan.energy,
      cost: plan.energy * mainnetFees.rentalPricePerEnergy.highest,
      activationCost: plan.activate ? mainnetFees.providerActivation : 0n,
      durationSeconds: 3600,
      provider: "dear"
    }
  })

const decide = (input: { account: AccountState; estimatedEnergy: bigint; policy?: { maxWalletTrxFee: bigint; rentalAllowed: boolean } }) =>
  decideEnergy({
    account: input.account,
    estimatedEnergy: input.estimatedEnergy,
    parameters: mainnet,
    policy: input.policy ?? { maxWalletTrxFee: 15_000_000n, rentalAllowed: true },
    stake: null,
    rentalOf: dearestProvider,
    providerName: "dear"
  })

describe("the energy decision", () => {
  it.effect("own energy covers it: fee limit for the whole transfer, nothing burned or rented", () =>
    Effect.gen(function*() {
      const decision = yield* decide({ account: account({ energyLimit: 80_000n, energyUsed: 5_000n, trx: 50_000_000n }), estimatedEnergy: 64_285n })
      expect(decision).toMatchObject({ preparedEnergy: 70_714n, feeLimit: 7_071_400n, shortfall: 0n, rental: null })
      expect(decision.choice).toMatchObject({ _tag: "Pay", path: "own" })
    }))

  it.effect("burns the wallet's TRX for the whole shortfall before asking a provider", () =>
    Effect.gen(function*() {
      const decision = yield* decide({ account: account({ energyLimit: 30_000n, trx: 5_000_000n }), estimatedEnergy: 64_285n })
      expect(decision).toMatchObject({ shortfall: 40_714n, burnFee: 4_071_400n, rental: null })
      expect(decision.choice).toMatchObject({ _tag: "Pay", path: "burn" })
    }))

  it.effect("an inactive wallet is rented for with activation, or not swept without rental", () =>
    Effect.gen(function*() {
      const inactive = account({ activated: false, freeBandwidthLimit: 0n, trx: 100_000_000n })
      const rented = yield* decide({ account: inactive, estimatedEnergy: 130_285n })
      expect(rented.rentalPlan).toMatchObject({ energy: 143_314n, activate: true })
      expect(rented.choice).toMatchObject({ _tag: "Pay", path: "rented" })
      const refused = yield* decide({ account: inactive, estimatedEnergy: 130_285n, policy: { maxWalletTrxFee: 15_000_000n, rentalAllowed: false } })
      expect(refused.choice._tag).toBe("Unpayable")
    }))
})

describe("the decision on the resource figures alone (no TRX or activation read)", () => {
  // 64,285 energy with the margin is 70,714: [energy limit, energy used, path or none].
  const table: ReadonlyArray<readonly [bigint, bigint, "own" | "none"]> = [
    [70_714n, 0n, "own"],
    [100_000n, 29_286n, "own"],
    [100_000n, 29_287n, "none"],
    [70_713n, 0n, "none"],
    [0n, 0n, "none"],
    [50_000n, 80_000n, "none"]
  ]
  it.each(table)("energy %s used %s: %s", (energyLimit, energyUsed, expected) => {
    const resources = account({ energyLimit, energyUsed })
    const decision = ownEnergyDecision(resources, 64_285n, mainnet)
    expect(Option.match(decision, { onNone: () => "none", onSome: (d) => d.choice._tag === "Pay" ? d.choice.path : d.choice._tag })).toBe(expected)
  })

  it("a transfer that needs no energy is no proof the account is on chain: decided on the whole account", () => {
    expect(Option.isNone(ownEnergyDecision(account({ energyLimit: 0n }), 0n, mainnet))).toBe(true)
  })

  it.effect("decides as the whole account's decision does, whatever the TRX and the activation said", () =>
    Effect.gen(function*() {
      const covered = account({ energyLimit: 80_000n, energyUsed: 5_000n })
      const alone = Option.getOrThrow(ownEnergyDecision(covered, 64_285n, mainnet))
      expect(alone).toMatchObject({ preparedEnergy: 70_714n, feeLimit: 7_071_400n, shortfall: 0n, rental: null })
      expect(yield* decide({ account: { ...covered, trx: 0n }, estimatedEnergy: 64_285n })).toEqual(alone)
      // The solidified block may not show an account activated moments ago that the head gives energy.
      expect(yield* decide({ account: { ...covered, activated: false }, estimatedEnergy: 64_285n })).toEqual(alone)
    }))
})

describe("the default automation policy against mainnet fees", () => {
  // The costliest ordinary sweep: into a collection address that holds no USDT yet.
  const costliest = mainnetFees.transferEnergyToEmpty

  it.effect("lets a wallet burn its own TRX for the costliest transfer", () =>
    Effect.gen(function*() {
      const decision = yield* decide({ account: account({ trx: 100_000_000n }), estimatedEnergy: costliest, policy: defaultAutomationPolicy })
      expect(decision.choice).toMatchObject({ _tag: "Pay", path: "burn" })
    }))

  it.effect("lets a rental with activation at the dearest provider price through the rental cap", () =>
    Effect.gen(function*() {
      const policy = { ...defaultAutomationPolicy, rentalAllowed: true }
      const decision = yield* decide({ account: account({ activated: false }), estimatedEnergy: costliest, policy })
      // 143,314 energy at 130 SUN plus a 1.5 TRX activation: 20,130,820 SUN.
      const dearest = 143_314n * 130n + 1_500_000n
      expect(decision.rentalPlan.energy * mainnetFees.rentalPricePerEnergy.highest + mainnetFees.providerActivation).toBe(dearest)
      expect(dearest).toBeLessThanOrEqual(defaultAutomationPolicy.maxRentalCost)
      expect(decision.choice).toMatchObject({ _tag: "Pay", path: "rented" })
    }))
})
