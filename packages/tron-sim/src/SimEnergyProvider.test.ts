import { describe, expect, it } from "@effect/vitest"
import { Sweeps } from "@collector/core"
import { Effect, Option, TestClock } from "effect"
import { defaultProviderSettings } from "./ProviderBook.js"
import { energyLimit } from "./SimAccount.js"
import type { SimChain } from "./SimChain.js"
import { providerChain } from "./testing/SimProviderChain.js"
import { accountOf } from "./testing/SimTestChain.js"
import { type SimWallet, wallet } from "./testing/SimWallet.js"

const active = wallet(1)
const fresh = wallet(2)
const funded = { genesisAccounts: [{ address: active.address, trx: 1_000_000n }] }

/** The energy the chain gives `who` from delegations (getaccountresource.EnergyLimit). */
const limitOf = (chain: SimChain, who: SimWallet) =>
  Effect.map(Effect.zip(chain.state, accountOf(chain, who)), ([state, account]) => energyLimit(account, state.parameters))

const rent = (orderNo: string, who: SimWallet, energy = 65_000n, activate = false) => ({ orderNo, receiver: who.address, energy, activate })

describe("SimEnergyProvider", () => {
  it("charges mainnet prices by default", () => {
    const { highest, lowest } = Sweeps.mainnetFees.rentalPricePerEnergy
    expect(defaultProviderSettings.pricePerEnergy).toBeGreaterThanOrEqual(lowest)
    expect(defaultProviderSettings.pricePerEnergy).toBeLessThanOrEqual(highest)
    expect(defaultProviderSettings.activationCost).toBe(Sweeps.mainnetFees.activation)
  })

  it.effect("quotes 90 SUN per energy for an hour, and 1.1 TRX to activate an inactive receiver", () =>
    Effect.gen(function*() {
      const { provider } = yield* providerChain(funded)
      expect(yield* provider.quote({ receiver: active.address, energy: 65_000n, activate: true })).toMatchObject({
        pricePerEnergy: 90n,
        cost: 5_850_000n,
        activationCost: 0n,
        durationMs: 3_600_000
      })
      expect((yield* provider.quote({ receiver: fresh.address, energy: 65_000n, activate: true })).activationCost).toBe(1_100_000n)
      const notActive = yield* Effect.flip(provider.quote({ receiver: fresh.address, energy: 65_000n, activate: false }))
      expect(notActive.code).toBe("NOT_ACTIVATED")
      expect((yield* Effect.flip(provider.quote({ receiver: active.address, energy: 5n, activate: false }))).code).toBe("INVALID_ENERGY")
      expect((yield* Effect.flip(provider.quote({ receiver: "T123", energy: 65_000n, activate: false }))).code).toBe("INVALID_RECEIVER")
    }))

  it.effect("delegates on chain with the next block; the same order number is the same order", () =>
    Effect.gen(function*() {
      const { chain, provider } = yield* providerChain(funded)
      const first = yield* provider.order(rent("A-1", active))
      expect(first.view.state).toBe("pending")
      expect(first.view.order.providerOrderId).toBe("SIM00000001")
      yield* chain.mine()
      const delivered = Option.getOrThrow(yield* provider.find("A-1"))
      expect(delivered).toMatchObject({ state: "delivered", deliveredEnergy: 65_000n, cost: 5_850_000n, activationCost: 0n })
      expect(yield* limitOf(chain, active)).toBeGreaterThanOrEqual(65_000n)
      const limit = yield* limitOf(chain, active)
      const again = yield* provider.order(rent("A-1", active, 99_000n))
      expect(again.view.order.providerOrderId).toBe("SIM00000001")
      expect(again.view.order.energy).toBe(65_000n)
      yield* chain.mine(2)
      expect(yield* limitOf(chain, active)).toBe(limit)
      expect(yield* provider.orders).toHaveLength(1)
      expect(yield* provider.find("B-9")).toEqual(Option.none())
    }))

  it.effect("activates an inactive receiver with a real transfer before delegating", () =>
    Effect.gen(function*() {
      const { chain, provider } = yield* providerChain()
      const placed = yield* provider.order(rent("act-1", fresh, 65_000n, true))
      expect(placed.view.activationCost).toBe(1_100_000n)
      yield* chain.mine()
      const view = Option.getOrThrow(yield* provider.find("act-1"))
      expect(view.state).toBe("delivered")
      expect(Option.isSome(view.order.activationTxid)).toBe(true)
      expect((yield* accountOf(chain, fresh)).balance).toBe(1n)
      expect(yield* limitOf(chain, fresh)).toBeGreaterThanOrEqual(65_000n)
    }))

  it.effect("takes the energy back once the hour is over", () =>
    Effect.gen(function*() {
      const { chain, provider } = yield* providerChain(funded)
      yield* provider.order(rent("exp-1", active))
      yield* chain.mine()
      const delivered = Option.getOrThrow(yield* provider.find("exp-1"))
      expect(Option.getOrThrow(delivered.expiresAt) - Option.getOrThrow(delivered.deliveredAt)).toBe(3_600_000)
      yield* TestClock.adjust("59 minutes")
      yield* chain.mine()
      expect(Option.getOrThrow(yield* provider.find("exp-1")).state).toBe("delivered")
      yield* TestClock.adjust("2 minutes")
      yield* chain.mine(2)
      const expired = Option.getOrThrow(yield* provider.find("exp-1"))
      expect(expired).toMatchObject({ state: "expired", deliveredEnergy: 65_000n, cost: 5_850_000n })
      expect(yield* limitOf(chain, active)).toBe(0n)
    }))

  it.effect("slow: delivers only after the given blocks", () =>
    Effect.gen(function*() {
      const { chain, provider } = yield* providerChain(funded)
      yield* provider.arm({ kind: "slow", blocks: 3 })
      yield* provider.order(rent("slow-1", active))
      yield* chain.mine(3)
      expect(Option.getOrThrow(yield* provider.find("slow-1")).state).toBe("pending")
      yield* chain.mine()
      expect(Option.getOrThrow(yield* provider.find("slow-1")).state).toBe("delivered")
      // Armed once: the next order is prompt again.
      yield* provider.order(rent("slow-2", active))
      yield* chain.mine()
      expect(Option.getOrThrow(yield* provider.find("slow-2")).state).toBe("delivered")
    }))

  it.effect("under-deliver: delegates a share of the order and says so, still charging the order", () =>
    Effect.gen(function*() {
      const { chain, provider } = yield* providerChain(funded)
      yield* provider.arm({ kind: "under-deliver", percent: 40 })
      yield* provider.order(rent("u-1", active, 100_000n))
      yield* chain.mine()
      expect(Option.getOrThrow(yield* provider.find("u-1"))).toMatchObject({ state: "delivered", deliveredEnergy: 40_000n, cost: 9_000_000n })
      const limit = yield* limitOf(chain, active)
      expect(limit).toBeGreaterThanOrEqual(40_000n)
      expect(limit).toBeLessThan(41_000n)
    }))

  it.effect("fail: accepts, then fails without a delegation and refunds", () =>
    Effect.gen(function*() {
      const { chain, provider } = yield* providerChain(funded)
      yield* provider.arm({ kind: "fail", reason: "out of stock" }, 2)
      expect((yield* provider.order(rent("f-1", active))).view.state).toBe("pending")
      yield* chain.mine()
      expect(Option.getOrThrow(yield* provider.find("f-1"))).toMatchObject({ state: "failed", reason: "out of stock", cost: 0n, deliveredEnergy: 0n })
      expect(yield* limitOf(chain, active)).toBe(0n)
      expect((yield* provider.faults).fail).toEqual(Option.some({ value: "out of stock", remaining: 1 }))
    }))

  it.effect("reject: refuses, orders nothing, and is used up", () =>
    Effect.gen(function*() {
      const { provider } = yield* providerChain(funded)
      yield* provider.arm({ kind: "reject", reason: "no energy available" })
      const refused = yield* Effect.flip(provider.order(rent("r-1", active)))
      expect(refused).toMatchObject({ code: "REJECTED", reason: "no energy available" })
      expect(yield* provider.find("r-1")).toEqual(Option.none())
      expect((yield* provider.order(rent("r-1", active))).view.state).toBe("pending")
    }))

  it.effect("unknown: carries the order out and loses the answer", () =>
    Effect.gen(function*() {
      const { chain, provider } = yield* providerChain(funded)
      yield* provider.arm({ kind: "unknown", lost: { mode: "close", holdMs: 0 } })
      const outcome = yield* provider.order(rent("x-1", active))
      expect(outcome.lost).toEqual(Option.some({ mode: "close", holdMs: 0 }))
      yield* chain.mine()
      expect(Option.getOrThrow(yield* provider.find("x-1")).state).toBe("delivered")
      expect((yield* provider.order(rent("x-1", active))).lost).toEqual(Option.none())
    }))

  it.effect("price: later quotes and orders use the new price; reset disarms faults", () =>
    Effect.gen(function*() {
      const { provider } = yield* providerChain(funded)
      yield* provider.setPrice(120n)
      expect((yield* provider.quote({ receiver: active.address, energy: 65_000n, activate: false })).cost).toBe(7_800_000n)
      expect((yield* Effect.flip(provider.setPrice(0n))).reason).toContain("positive")
      yield* provider.arm({ kind: "reject", reason: "x" }, 5)
      yield* provider.reset
      expect((yield* provider.order(rent("p-1", active))).view.order.pricePerEnergy).toBe(120n)
    }))
})
