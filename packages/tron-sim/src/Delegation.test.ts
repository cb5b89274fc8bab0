import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { infoOf, testChain } from "./testing/SimTestChain.js"
import { signAndBroadcast, usdtTransfer, wallet } from "./testing/SimWallet.js"
import { broadcastBuilt, buildSignBroadcast, walletCall } from "./testing/WalletCalls.js"

/**
 * Stake 2.0 delegation between accounts of the simulation: the operator's resource account
 * stakes TRX for energy and lends it to a wallet for one sweep. Default parameters give 10
 * energy per staked TRX, so 1 energy of usage stands for 100,000 SUN of stake.
 */

const owner = wallet(31)
const receiver = wallet(32)
const holder = wallet(33)
const inactive = wallet(34)
const trx = (n: bigint) => n * 1_000_000n
const sun = (n: bigint) => n.toString()

type Sim = Effect.Effect.Success<ReturnType<typeof testChain>>

const invalid = (text: string) => ({ Error: `class org.tron.core.exception.ContractValidateException : ${text}` })

/** The owner holds 20,000 TRX and has staked 10,000 of it for energy (100,000 energy); the receiver holds USDT and 1 TRX, no energy. */
const staked = Effect.gen(function*() {
  const sim = yield* testChain({
    genesisAccounts: [
      { address: owner.address, trx: trx(20_000n) },
      { address: receiver.address, trx: trx(1n), usdt: 50_000_000n },
      { address: holder.address, usdt: 1n }
    ]
  })
  const frozen = yield* buildSignBroadcast(sim, "freezebalancev2", { owner_address: owner.address, frozen_balance: sun(trx(10_000n)), resource: "ENERGY" }, owner)
  expect(frozen).toMatchObject({ result: true })
  yield* sim.mine()
  return sim
})

const delegate = (sim: Sim, balance: bigint, extra: Record<string, unknown> = {}) =>
  buildSignBroadcast(sim, "delegateresource", { owner_address: owner.address, receiver_address: receiver.address, balance: sun(balance), resource: "ENERGY", ...extra }, owner)

const undelegate = (sim: Sim, balance: bigint, resource = "ENERGY") =>
  buildSignBroadcast(sim, "undelegateresource", { owner_address: owner.address, receiver_address: receiver.address, balance: sun(balance), resource }, owner)

const maxSize = (sim: Sim) => Effect.map(walletCall(sim, "getcandelegatedmaxsize", { owner_address: owner.address, type: 1, visible: true }), (reply) => reply.max_size ?? 0)
const resources = (sim: Sim, of: string) => walletCall(sim, "getaccountresource", { address: of, visible: true })

describe("Stake 2.0 delegation (delegateresource, undelegateresource)", () => {
  it.effect("delegating moves the stake's energy to the receiver and shows on both accounts and in the queries", () =>
    Effect.gen(function*() {
      const sim = yield* staked
      expect(yield* delegate(sim, trx(7_000n))).toMatchObject({ result: true })
      yield* sim.mine()

      expect(yield* maxSize(sim)).toBe(3_000_000_000)
      expect((yield* resources(sim, owner.address)).EnergyLimit).toBe(30_000)
      expect((yield* resources(sim, receiver.address)).EnergyLimit).toBe(70_000)
      const ownerAccount = yield* walletCall(sim, "getaccount", { address: owner.address, visible: true })
      expect(ownerAccount.frozenV2[1]).toEqual({ type: "ENERGY", amount: 3_000_000_000 })
      expect(ownerAccount.account_resource.delegated_frozenV2_balance_for_energy).toBe(7_000_000_000)
      const receiverAccount = yield* walletCall(sim, "getaccount", { address: receiver.address, visible: true })
      expect(receiverAccount.account_resource.acquired_delegated_frozenV2_balance_for_energy).toBe(7_000_000_000)

      expect(yield* walletCall(sim, "getdelegatedresourcev2", { fromAddress: owner.address, toAddress: receiver.address, visible: true })).toEqual({
        delegatedResource: [{ from: owner.address, to: receiver.address, frozen_balance_for_energy: 7_000_000_000 }]
      })
      // Hex addresses without visible, as java-tron prints them.
      expect(yield* walletCall(sim, "getdelegatedresourcev2", { fromAddress: owner.hex, toAddress: receiver.hex })).toEqual({
        delegatedResource: [{ from: owner.hex, to: receiver.hex, frozen_balance_for_energy: 7_000_000_000 }]
      })
      expect(yield* walletCall(sim, "getdelegatedresourcev2", { fromAddress: receiver.address, toAddress: owner.address, visible: true })).toEqual({})
      expect(yield* walletCall(sim, "getdelegatedresourceaccountindexv2", { value: owner.address, visible: true })).toEqual({
        account: owner.address,
        toAccounts: [receiver.address]
      })
      expect(yield* walletCall(sim, "getdelegatedresourceaccountindexv2", { value: receiver.address, visible: true })).toEqual({
        account: receiver.address,
        fromAccounts: [owner.address]
      })
      // The solidity node does not know it yet, the full node does.
      expect(yield* walletCall(sim, "/walletsolidity/getdelegatedresourcev2", { fromAddress: owner.address, toAddress: receiver.address, visible: true })).toEqual({})
    }))

  it.effect("refuses less than 1 TRX, more than the available stake, itself, an inactive receiver and locks, with java-tron's texts", () =>
    Effect.gen(function*() {
      const sim = yield* staked
      expect(yield* delegate(sim, 999_999n)).toEqual(invalid("delegateBalance must be greater than or equal to 1 TRX"))
      expect(yield* delegate(sim, trx(10_001n))).toEqual(invalid("delegateBalance must be less than or equal to available FreezeEnergyV2 balance"))
      expect(yield* delegate(sim, trx(1n), { resource: "BANDWIDTH" })).toEqual(
        invalid("delegateBalance must be less than or equal to available FreezeBandwidthV2 balance")
      )
      expect(yield* delegate(sim, trx(1n), { receiver_address: owner.address })).toEqual(invalid("receiverAddress must not be the same as ownerAddress"))
      expect(yield* delegate(sim, trx(1n), { receiver_address: inactive.address })).toEqual(invalid(`Account[${inactive.hex}] not exists`))
      expect(yield* delegate(sim, trx(1n), { lock: true, lock_period: 86_400 })).toEqual(invalid("the simulator does not model locked delegations (lock: true)"))
      // Exactly 1 TRX, and lock_period without lock is ignored.
      expect(yield* delegate(sim, trx(1n), { lock_period: 86_400 })).toMatchObject({ result: true })
    }))

  it.effect("checks again at broadcast: of two delegations of the whole stake built together, the second is refused", () =>
    Effect.gen(function*() {
      const sim = yield* staked
      const build = (to: string) =>
        walletCall(sim, "delegateresource", { owner_address: owner.address, receiver_address: to, balance: sun(trx(10_000n)), resource: "ENERGY", visible: true })
      const first = yield* build(receiver.address)
      const second = yield* build(holder.address)
      expect(first.txID).not.toBe(second.txID)
      expect(yield* broadcastBuilt(sim, first, owner)).toMatchObject({ result: true })
      const refused = yield* broadcastBuilt(sim, second, owner)
      expect(refused).toMatchObject({
        result: false,
        code: "CONTRACT_VALIDATE_ERROR",
        message: "Contract validate error : delegateBalance must be less than or equal to available FreezeEnergyV2 balance"
      })
      // And the builder, which sees the pending pool, now refuses it too.
      expect((yield* build(holder.address)).Error).toBe(
        "class org.tron.core.exception.ContractValidateException : delegateBalance must be less than or equal to available FreezeEnergyV2 balance"
      )
    }))

  it.effect("refuses to reclaim what was not delegated, or more than was", () =>
    Effect.gen(function*() {
      const sim = yield* staked
      expect(yield* undelegate(sim, trx(1n))).toEqual(invalid("delegated Resource does not exist"))
      yield* delegate(sim, trx(2_000n))
      yield* sim.mine()
      expect(yield* undelegate(sim, trx(2_001n))).toEqual(invalid(`insufficient delegateFrozenBalance(Energy), request=${trx(2_001n)}, unlock_balance=${trx(2_000n)}`))
      expect(yield* undelegate(sim, trx(1n), "BANDWIDTH")).toEqual(invalid(`insufficient delegatedFrozenBalance(BANDWIDTH), request=${trx(1n)}, unlock_balance=0`))
      expect(yield* undelegate(sim, 0n)).toEqual(invalid("unDelegateBalance must be more than 0 TRX"))
      // Part of it, then the rest: the record goes once nothing is left.
      expect(yield* undelegate(sim, trx(500n))).toMatchObject({ result: true })
      yield* sim.mine()
      expect((yield* walletCall(sim, "getdelegatedresourcev2", { fromAddress: owner.address, toAddress: receiver.address, visible: true })).delegatedResource)
        .toEqual([{ from: owner.address, to: receiver.address, frozen_balance_for_energy: 1_500_000_000 }])
      expect(yield* undelegate(sim, trx(1_500n))).toMatchObject({ result: true })
      yield* sim.mine()
      expect(yield* walletCall(sim, "getdelegatedresourcev2", { fromAddress: owner.address, toAddress: receiver.address, visible: true })).toEqual({})
      expect(yield* walletCall(sim, "getdelegatedresourceaccountindexv2", { value: owner.address, visible: true })).toEqual({})
      expect(yield* maxSize(sim)).toBe(10_000_000_000)
    }))

  it.effect("a sweep: delegated energy pays the receiver's USDT transfer, reclaiming takes it back, and the used part regenerates over 24 h", () =>
    Effect.gen(function*() {
      const sim = yield* staked
      expect((yield* resources(sim, receiver.address)).EnergyLimit ?? 0).toBe(0)
      expect(yield* delegate(sim, trx(7_000n))).toMatchObject({ result: true })
      yield* sim.mine()

      const txid = yield* signAndBroadcast(sim, yield* usdtTransfer(sim, receiver, holder.address, 10_000_000n, trx(30n)), receiver)
      yield* sim.mine()
      const info = yield* infoOf(sim, txid)
      expect(info.contractRet).toBe("SUCCESS")
      expect(info.receipt).toMatchObject({ energyUsage: 64_285n, energyUsageTotal: 64_285n, energyFee: 0n })
      // Its 1 TRX is untouched: the energy paid and the bytes came from free bandwidth.
      expect((yield* walletCall(sim, "getaccount", { address: receiver.address, visible: true })).balance).toBe(1_000_000)

      expect(yield* undelegate(sim, trx(7_000n))).toMatchObject({ result: true })
      yield* sim.mine()
      const after = yield* resources(sim, receiver.address)
      expect(after.EnergyLimit ?? 0).toBe(0)
      expect(after.EnergyUsed ?? 0).toBe(0)
      // The stake is the owner's again; the energy the sweep burned through came back with it as usage,
      // so what the owner may delegate now is its stake less that usage (100,000 SUN per energy)...
      const ownerResources = yield* resources(sim, owner.address)
      expect(ownerResources.EnergyLimit).toBe(100_000)
      expect(ownerResources.EnergyUsed).toBeGreaterThan(64_000)
      expect(yield* maxSize(sim)).toBe(10_000_000_000 - ownerResources.EnergyUsed * 100_000)
      // ...half of it regenerates in 12 hours, all of it in 24.
      yield* TestClock.adjust("12 hours")
      const half = (yield* resources(sim, owner.address)).EnergyUsed
      expect(half).toBeGreaterThan(31_900)
      expect(half).toBeLessThan(32_300)
      expect(yield* maxSize(sim)).toBe(10_000_000_000 - half * 100_000)
      yield* TestClock.adjust("12 hours")
      yield* TestClock.adjust("1 minute")
      expect((yield* resources(sim, owner.address)).EnergyUsed ?? 0).toBe(0)
      expect(yield* maxSize(sim)).toBe(10_000_000_000)
    }))

  it.effect("a genesis resource account with stakedForEnergy can delegate at once", () =>
    Effect.gen(function*() {
      const sim = yield* testChain({
        genesisAccounts: [{ address: owner.address, trx: trx(1n), stakedForEnergy: trx(5_000n) }, { address: receiver.address, trx: trx(1n) }]
      })
      expect(yield* maxSize(sim)).toBe(5_000_000_000)
      expect((yield* resources(sim, owner.address)).EnergyLimit).toBe(50_000)
      expect(yield* delegate(sim, trx(5_000n))).toMatchObject({ result: true })
      yield* sim.mine()
      expect((yield* resources(sim, receiver.address)).EnergyLimit).toBe(50_000)
      expect(yield* maxSize(sim)).toBe(0)
    }))

  it.effect("energy in use cannot be delegated: the owner's own transfer lowers what it may delegate", () =>
    Effect.gen(function*() {
      const sim = yield* testChain({
        genesisAccounts: [{ address: owner.address, trx: trx(20_000n), usdt: 50_000_000n }, { address: receiver.address, trx: trx(1n) }, { address: holder.address, usdt: 1n }]
      })
      yield* buildSignBroadcast(sim, "freezebalancev2", { owner_address: owner.address, frozen_balance: sun(trx(10_000n)), resource: "ENERGY" }, owner)
      yield* sim.mine()
      yield* signAndBroadcast(sim, yield* usdtTransfer(sim, owner, holder.address, 1_000_000n, trx(30n)), owner)
      yield* sim.mine()
      const used = (yield* resources(sim, owner.address)).EnergyUsed
      expect(used).toBeGreaterThan(64_000)
      const size = yield* maxSize(sim)
      expect(size).toBe(10_000_000_000 - used * 100_000)
      expect(yield* delegate(sim, BigInt(size) + 1n)).toEqual(invalid("delegateBalance must be less than or equal to available FreezeEnergyV2 balance"))
      expect(yield* delegate(sim, BigInt(size))).toMatchObject({ result: true })
    }))
})
