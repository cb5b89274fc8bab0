import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { adapterFor, signWith, startSimNode } from "./testing/SimNode.js"
import { wallet } from "./testing/SimWallet.js"

/**
 * The node adapter's own-stake calls (`freezebalancev2`, `unfreezebalancev2`) against the
 * simulator over real HTTP: the built transactions are signed, broadcast and mined, and the
 * stake shows where the service reads it (what the owner may lend, its resource figures).
 */

const owner = wallet(51)
const trx = (n: bigint) => n * 1_000_000n

const funded = startSimNode({ genesisAccounts: [{ address: owner.address, trx: trx(100n) }] })

describe("TronNodeChain own stake over the simulator", () => {
  it.scopedLive("stakes TRX for energy and bandwidth and starts unstaking it", () =>
    Effect.gen(function*() {
      const sim = yield* funded
      const chain = yield* adapterFor(sim.url)
      expect(yield* chain.delegatableEnergyStake(owner.address)).toBe(0n)

      const stake = yield* chain.buildStake({ owner: owner.address, balance: trx(40n), resource: "ENERGY" })
      expect(stake.feeLimit).toBe(0n)
      expect(yield* chain.broadcast(signWith(stake, owner))).toEqual({ _tag: "Accepted" })
      yield* sim.chain.mine()
      expect(yield* chain.delegatableEnergyStake(owner.address)).toBe(trx(40n))

      const bandwidth = yield* chain.buildStake({ owner: owner.address, balance: trx(5n), resource: "BANDWIDTH" })
      expect(yield* chain.broadcast(signWith(bandwidth, owner))).toEqual({ _tag: "Accepted" })
      yield* sim.chain.mine()
      // Bandwidth stake is not energy stake: nothing more to lend.
      expect(yield* chain.delegatableEnergyStake(owner.address)).toBe(trx(40n))
      expect((yield* chain.resources(owner.address)).stakedBandwidthLimit).toBeGreaterThan(0n)

      const unstake = yield* chain.buildUnstake({ owner: owner.address, balance: trx(15n), resource: "ENERGY" })
      expect(yield* chain.broadcast(signWith(unstake, owner))).toEqual({ _tag: "Accepted" })
      yield* sim.chain.mine()
      expect(yield* chain.delegatableEnergyStake(owner.address)).toBe(trx(25n))
    }))

  it.scopedLive("reports the node's refusals and refuses a bad ask before calling it", () =>
    Effect.gen(function*() {
      const sim = yield* funded
      const chain = yield* adapterFor(sim.url)
      const reason = (effect: Effect.Effect<unknown, { readonly _tag: string; readonly reason: string }>) =>
        Effect.map(Effect.flip(effect), (error) => `${error._tag}: ${error.reason}`)
      expect(yield* reason(chain.buildStake({ owner: owner.address, balance: 999_999n, resource: "ENERGY" }))).toBe(
        "ChainRejected: /wallet/freezebalancev2: ContractValidateException: frozenBalance must be greater than or equal to 1 TRX"
      )
      expect(yield* reason(chain.buildStake({ owner: owner.address, balance: trx(101n), resource: "ENERGY" }))).toBe(
        "ChainRejected: /wallet/freezebalancev2: ContractValidateException: frozenBalance must be less than or equal to accountBalance"
      )
      expect(yield* reason(chain.buildUnstake({ owner: owner.address, balance: trx(1n), resource: "ENERGY" }))).toMatch(
        /^ChainRejected: \/wallet\/unfreezebalancev2: ContractValidateException: no frozenBalance/
      )
      expect(yield* reason(chain.buildStake({ owner: owner.address, balance: 0n, resource: "ENERGY" }))).toBe("ChainRejected: stake out of range: 0")
      expect(yield* reason(chain.buildStake({ owner: "not-an-address", balance: trx(1n), resource: "ENERGY" }))).toBe(
        "ChainRejected: not a TRON address: not-an-address"
      )
    }))
})
