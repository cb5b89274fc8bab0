import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Either, TestClock } from "effect"
import { isActivated } from "./WorldState.js"
import { head } from "./SimState.js"
import { accountOf, infoOf, resourcesOf, testChain, usdtOf } from "./testing/SimTestChain.js"
import { signAndBroadcast, trxTransfer, usdtTransfer, wallet } from "./testing/SimWallet.js"

const sender = wallet(1)
const holder = wallet(2)
const stranger = wallet(4)
const trx = (n: bigint) => n * 1_000_000n

describe("SimChain bandwidth and activation", () => {
  it.effect("uses free bandwidth first, burns 1,000 SUN a byte when it runs out, and regenerates it over 24 hours", () =>
    Effect.gen(function*() {
      const chain = yield* testChain({
        genesisAccounts: [{ address: sender.address, trx: trx(100n), usdt: 10n }, { address: holder.address, usdt: 1n }]
      })
      const send = Effect.gen(function*() {
        const txid = yield* signAndBroadcast(chain, yield* usdtTransfer(chain, sender, holder.address, 1n, trx(50n)), sender)
        yield* chain.mine()
        return yield* infoOf(chain, txid)
      })
      const first = yield* send
      const bytes = first.receipt.netUsage
      // A USDT transfer is about 345 bytes with its 64-byte result allowance.
      expect(Number(bytes)).toBeGreaterThan(330)
      expect(Number(bytes)).toBeLessThan(360)
      expect(first.receipt.netFee).toBe(0n)
      const second = yield* send
      expect(second.receipt).toMatchObject({ netUsage: 0n, netFee: bytes * 1000n })
      expect(second.fee).toBe(second.receipt.energyFee + bytes * 1000n)
      const now = yield* Clock.currentTimeMillis
      expect((yield* resourcesOf(chain, sender, now)).freeNetUsed).toBe(bytes)
      yield* TestClock.adjust("12 hours")
      const half = (yield* resourcesOf(chain, sender, yield* Clock.currentTimeMillis)).freeNetUsed
      expect(Number(half)).toBeCloseTo(Number(bytes) / 2, -1)
      yield* TestClock.adjust("13 hours")
      expect((yield* resourcesOf(chain, sender, yield* Clock.currentTimeMillis)).freeNetUsed).toBe(0n)
      // Back to free bandwidth. A block first: transactions expire 60 s after the head block's time.
      yield* chain.mine()
      expect((yield* send).receipt.netFee).toBe(0n)
    }))

  it.effect("refuses a sender without bandwidth or TRX to burn: BANDWITH_ERROR", () =>
    Effect.gen(function*() {
      const chain = yield* testChain({ genesisAccounts: [{ address: sender.address, trx: 1n, usdt: 10n }] })
      // The first transfer fits the free bandwidth (and then runs out of energy: 1 SUN buys none).
      const first = yield* signAndBroadcast(chain, yield* usdtTransfer(chain, sender, holder.address, 1n, trx(50n)), sender)
      yield* chain.mine()
      expect((yield* infoOf(chain, first)).contractRet).toBe("OUT_OF_ENERGY")
      const refused = yield* signAndBroadcast(chain, yield* usdtTransfer(chain, sender, holder.address, 1n, trx(50n)), sender).pipe(Effect.flip)
      expect(refused).toMatchObject({ code: "BANDWITH_ERROR", message: "Account resource insufficient error." })
    }))

  it.effect("an address holding only USDT is not activated and cannot send", () =>
    Effect.gen(function*() {
      const chain = yield* testChain({ genesisAccounts: [{ address: sender.address, trx: trx(100n), usdt: 10n }] })
      const txid = yield* signAndBroadcast(chain, yield* usdtTransfer(chain, sender, stranger.address, 5n, trx(50n)), sender)
      yield* chain.mine()
      expect((yield* infoOf(chain, txid)).contractRet).toBe("SUCCESS")
      expect(isActivated(head(yield* chain.state).world, stranger.hex)).toBe(false)
      const refused = yield* signAndBroadcast(chain, yield* usdtTransfer(chain, stranger, sender.address, 1n, trx(50n)), stranger).pipe(
        Effect.flip
      )
      expect(refused).toMatchObject({
        code: "CONTRACT_VALIDATE_ERROR",
        message: `Contract validate error : account [${stranger.address}] does not exist`
      })
    }))

  it.effect("a TRX transfer to a new address activates it for 1 TRX plus 0.1 TRX of bandwidth", () =>
    Effect.gen(function*() {
      const chain = yield* testChain({ genesisAccounts: [{ address: sender.address, trx: trx(100n) }] })
      const txid = yield* signAndBroadcast(chain, yield* trxTransfer(chain, sender, stranger.address, trx(5n)), sender)
      yield* chain.mine()
      const info = yield* infoOf(chain, txid)
      expect(info.fee).toBe(1_100_000n)
      expect(info.receipt).toMatchObject({ netFee: 100_000n, netUsage: 0n })
      expect(info.receipt.result).toBeUndefined()
      expect((yield* accountOf(chain, stranger)).balance).toBe(trx(5n))
      expect((yield* accountOf(chain, sender)).balance).toBe(trx(100n) - trx(5n) - 1_100_000n)
      // To an existing account: free bandwidth, no fee.
      const again = yield* signAndBroadcast(chain, yield* trxTransfer(chain, sender, stranger.address, 1n), sender)
      yield* chain.mine()
      expect((yield* infoOf(chain, again)).fee).toBe(0n)
    }))

  it.effect("the control surface activates, funds and refuses delegating to an inactive address", () =>
    Effect.gen(function*() {
      const chain = yield* testChain()
      expect(Either.isLeft(yield* Effect.either(chain.delegateEnergy(stranger.address, 1000n)))).toBe(true)
      yield* chain.activate(stranger.address)
      yield* chain.transferTrx({ to: stranger.address, amount: trx(3n) })
      yield* chain.mintUsdt(stranger.address, 7n)
      yield* chain.mine()
      expect((yield* accountOf(chain, stranger)).balance).toBe(trx(3n) + 1n)
      expect(yield* usdtOf(chain, stranger.hex)).toBe(7n)
      yield* chain.delegateEnergy(stranger.address, 1000n)
      yield* chain.mine()
      expect((yield* resourcesOf(chain, stranger, yield* Clock.currentTimeMillis)).energyLeft).toBe(1000n)
    }))
})
