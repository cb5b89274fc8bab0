import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { adapterFor, signWith, startSimNode } from "./testing/SimNode.js"
import { wallet } from "./testing/SimWallet.js"

/**
 * The node adapter's Stake 2.0 calls (stake totals, what the owner may lend and has lent, the
 * lending and reclaiming transactions) against the simulator over real HTTP. Default parameters
 * give 10 energy per staked TRX (TotalEnergyLimit 180e9 / TotalEnergyWeight 18e9), so a USDT
 * transfer's 64,285 energy needs 6,429 whole TRX of stake.
 */

const owner = wallet(41)
const receiver = wallet(42)
const stranger = wallet(43)
const trx = (n: bigint) => n * 1_000_000n

const staked = startSimNode({
  genesisAccounts: [
    { address: owner.address, trx: trx(5n), stakedForEnergy: trx(10_000n) },
    { address: receiver.address, trx: trx(1n), usdt: 5_000_000n }
  ]
})

describe("TronNodeChain Stake 2.0 over the simulator", () => {
  it.scopedLive("lends energy stake to a wallet and takes it back, each visible in the queries", () =>
    Effect.gen(function*() {
      const sim = yield* staked
      const chain = yield* adapterFor(sim.url)
      expect(yield* chain.stakeTotals(owner.address)).toEqual({ totalEnergyLimit: 180_000_000_000n, totalEnergyWeight: 18_000_000_000n })
      expect(yield* chain.delegatableEnergyStake(owner.address)).toBe(trx(10_000n))
      expect(yield* chain.lentEnergyStake({ owner: owner.address, receiver: receiver.address })).toBe(0n)

      const loan = { owner: owner.address, receiver: receiver.address, balance: trx(6_429n) }
      const lending = yield* chain.buildEnergyLoan(loan)
      expect(lending.feeLimit).toBe(0n)
      expect(yield* chain.broadcast(signWith(lending, owner))).toEqual({ _tag: "Accepted" })
      yield* sim.chain.mine()
      expect(yield* chain.lentEnergyStake({ owner: owner.address, receiver: receiver.address })).toBe(trx(6_429n))
      expect(yield* chain.delegatableEnergyStake(owner.address)).toBe(trx(3_571n))
      expect(yield* chain.energyStake(owner.address)).toEqual({ staked: trx(10_000n), lent: trx(6_429n) })
      expect((yield* chain.resources(receiver.address)).energyLimit).toBe(64_290n)
      // The other direction lends nothing.
      expect(yield* chain.lentEnergyStake({ owner: receiver.address, receiver: owner.address })).toBe(0n)

      const reclaim = yield* chain.buildEnergyReclaim(loan)
      expect(yield* chain.broadcast(signWith(reclaim, owner))).toEqual({ _tag: "Accepted" })
      yield* sim.chain.mine()
      expect(yield* chain.lentEnergyStake({ owner: owner.address, receiver: receiver.address })).toBe(0n)
      expect(yield* chain.delegatableEnergyStake(owner.address)).toBe(trx(10_000n))
      expect(yield* chain.energyStake(owner.address)).toEqual({ staked: trx(10_000n), lent: 0n })
      expect((yield* chain.resources(receiver.address)).energyLimit).toBe(0n)
    }))

  it.scopedLive("re-stamps a loan with the caller's expiration, which changes its txid; the node still takes it", () =>
    Effect.gen(function*() {
      const sim = yield* staked
      const chain = yield* adapterFor(sim.url)
      const loan = { owner: owner.address, receiver: receiver.address, balance: trx(1n) }
      const plain = yield* chain.buildEnergyLoan(loan)
      const expiration = new Date(plain.expiration.getTime() + 600_000)
      const stamped = yield* chain.buildEnergyLoan(loan, expiration)
      expect(stamped.expiration).toEqual(expiration)
      expect(stamped.txid).not.toBe(plain.txid)
      expect(yield* chain.broadcast(signWith(stamped, owner))).toEqual({ _tag: "Accepted" })
      yield* sim.chain.mine()
      expect(yield* chain.lentEnergyStake({ owner: owner.address, receiver: receiver.address })).toBe(trx(1n))
    }))

  it.scopedLive("reports the node's refusals: more than the stake, below 1 TRX, reclaiming what was not lent; an unknown owner may lend nothing", () =>
    Effect.gen(function*() {
      const sim = yield* staked
      const chain = yield* adapterFor(sim.url)
      const reason = (effect: Effect.Effect<unknown, { readonly _tag: string; readonly reason: string }>) =>
        Effect.map(Effect.flip(effect), (error) => `${error._tag}: ${error.reason}`)
      expect(yield* reason(chain.buildEnergyLoan({ owner: owner.address, receiver: receiver.address, balance: trx(10_001n) }))).toBe(
        "ChainRejected: /wallet/delegateresource: ContractValidateException: delegateBalance must be less than or equal to available FreezeEnergyV2 balance"
      )
      expect(yield* reason(chain.buildEnergyLoan({ owner: owner.address, receiver: receiver.address, balance: 999_999n }))).toBe(
        "ChainRejected: /wallet/delegateresource: ContractValidateException: delegateBalance must be greater than or equal to 1 TRX"
      )
      expect(yield* reason(chain.buildEnergyReclaim({ owner: owner.address, receiver: receiver.address, balance: trx(1n) }))).toMatch(
        /^ChainRejected: \/wallet\/undelegateresource: ContractValidateException: /
      )
      expect(yield* reason(chain.buildEnergyLoan({ owner: "not-an-address", receiver: receiver.address, balance: trx(1n) }))).toBe(
        "ChainRejected: not a TRON address: not-an-address"
      )
      expect(yield* chain.delegatableEnergyStake(stranger.address)).toBe(0n)
    }))
})
