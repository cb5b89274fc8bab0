import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, TestClock } from "effect"
import { accountOf, infoOf, resourcesOf, testChain, usdtOf } from "./testing/SimTestChain.js"
import { signAndBroadcast, usdtTransfer, wallet } from "./testing/SimWallet.js"

const sender = wallet(1)
const holder = wallet(2)
const empty = wallet(3)
const trx = (n: bigint) => n * 1_000_000n

/** The sender is activated with 1,000 TRX and 1,000 USDT; `holder` already holds USDT. */
const chainWithFunds = testChain({
  genesisAccounts: [
    { address: sender.address, trx: trx(1000n), usdt: 1_000_000_000n },
    { address: holder.address, usdt: 1n }
  ]
})

const sendUsdt = (chain: Effect.Effect.Success<typeof chainWithFunds>, to: string, amount: bigint, feeLimit: bigint) =>
  Effect.gen(function*() {
    const txid = yield* signAndBroadcast(chain, yield* usdtTransfer(chain, sender, to, amount, feeLimit), sender)
    yield* chain.mine()
    return yield* infoOf(chain, txid)
  })

describe("SimChain energy", () => {
  it.effect("a transfer to an address without USDT uses 130,285 energy, burned at 100 SUN", () =>
    Effect.gen(function*() {
      const chain = yield* chainWithFunds
      const info = yield* sendUsdt(chain, empty.address, 5_000_000n, trx(100n))
      expect(info.contractRet).toBe("SUCCESS")
      expect(info.receipt).toMatchObject({ energyUsageTotal: 130_285n, energyUsage: 0n, energyFee: 13_028_500n, energyPenaltyTotal: 100_635n, result: "SUCCESS" })
      expect(info.fee).toBe(13_028_500n)
      expect(yield* usdtOf(chain, empty.hex)).toBe(5_000_000n)
      expect((yield* accountOf(chain, sender)).balance).toBe(trx(1000n) - 13_028_500n)
      expect(info.logs).toEqual([{
        address: "eca9bc828a3005b9a3b909f2cc5c2a54794de05f",
        topics: [
          "ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
          sender.hex.slice(2).padStart(64, "0"),
          empty.hex.slice(2).padStart(64, "0")
        ],
        data: "00000000000000000000000000000000000000000000000000000000004c4b40"
      }])
    }))

  it.effect("a transfer to a holder uses 64,285 energy", () =>
    Effect.gen(function*() {
      const chain = yield* chainWithFunds
      const info = yield* sendUsdt(chain, holder.address, 1n, trx(100n))
      expect(info.receipt.energyUsageTotal).toBe(64_285n)
      expect(info.receipt.energyFee).toBe(6_428_500n)
    }))

  it.effect("a fee_limit below the burn needed ends OUT_OF_ENERGY: fee_limit burned, nothing transferred", () =>
    Effect.gen(function*() {
      const chain = yield* chainWithFunds
      const info = yield* sendUsdt(chain, empty.address, 5_000_000n, trx(5n))
      expect(info.contractRet).toBe("OUT_OF_ENERGY")
      expect(info.receipt).toMatchObject({ energyUsageTotal: 50_000n, energyFee: trx(5n), result: "OUT_OF_ENERGY" })
      expect(info.logs).toEqual([])
      expect(info.resMessage).toContain("Not enough energy")
      expect(yield* usdtOf(chain, empty.hex)).toBe(0n)
      expect(yield* usdtOf(chain, sender.hex)).toBe(1_000_000_000n)
      expect((yield* accountOf(chain, sender)).balance).toBe(trx(995n))
    }))

  it.effect("delegated energy pays first, the rest is burned; it regenerates over 24 hours", () =>
    Effect.gen(function*() {
      const chain = yield* chainWithFunds
      yield* chain.delegateEnergy(sender.address, 130_285n)
      yield* chain.mine()
      // 13,029 TRX staked by the provider: 130,290 energy.
      expect((yield* resourcesOf(chain, sender, yield* Clock.currentTimeMillis)).energyLeft).toBe(130_290n)
      const first = yield* sendUsdt(chain, empty.address, 1n, trx(100n))
      expect(first.receipt).toMatchObject({ energyUsage: 130_285n, energyFee: 0n, energyUsageTotal: 130_285n })
      expect(first.fee).toBe(0n)
      const second = yield* sendUsdt(chain, holder.address, 1n, trx(100n))
      // What is left (5, plus what 3 seconds regenerated) pays first; the rest burns.
      expect(second.receipt.energyUsage).toBeLessThan(20n)
      expect(second.receipt.energyUsage + second.receipt.energyFee / 100n).toBe(64_285n)
      yield* TestClock.adjust("12 hours")
      const { energyLeft } = yield* resourcesOf(chain, sender, yield* Clock.currentTimeMillis)
      expect(Number(energyLeft)).toBeCloseTo(130_290 / 2, -2)
      // Blocks mined at once run a few slots ahead of the clock: their usage recovers a little later.
      yield* TestClock.adjust("13 hours")
      expect((yield* resourcesOf(chain, sender, yield* Clock.currentTimeMillis)).energyLeft).toBe(130_290n)
    }))

  it.effect("fee_limit caps the call even when delegated energy would pay for it", () =>
    Effect.gen(function*() {
      const chain = yield* chainWithFunds
      yield* chain.delegateEnergy(sender.address, 200_000n)
      yield* chain.mine()
      const info = yield* sendUsdt(chain, empty.address, 1n, trx(1n))
      expect(info.contractRet).toBe("OUT_OF_ENERGY")
      expect(info.receipt).toMatchObject({ energyUsage: 10_000n, energyUsageTotal: 10_000n, energyFee: 0n })
    }))

  it.effect("burns at the energy price in force", () =>
    Effect.gen(function*() {
      const chain = yield* chainWithFunds
      yield* chain.setEnergyPrice(420n)
      const info = yield* sendUsdt(chain, holder.address, 1n, trx(100n))
      expect(info.receipt.energyFee).toBe(64_285n * 420n)
    }))

  it.effect("a transfer of more than the sender holds reverts and still burns its energy", () =>
    Effect.gen(function*() {
      const chain = yield* chainWithFunds
      const info = yield* sendUsdt(chain, holder.address, 2_000_000_000n, trx(100n))
      expect(info.contractRet).toBe("REVERT")
      expect(info.receipt.energyFee).toBeGreaterThan(0n)
      expect(info.logs).toEqual([])
      expect(yield* usdtOf(chain, holder.hex)).toBe(1n)
    }))
})
