import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { unfreezeDelayMs } from "./Staking.js"
import { headNumber } from "./SimChain.js"
import { infoOf, testChain } from "./testing/SimTestChain.js"
import { signAndBroadcast, trxTransfer, wallet } from "./testing/SimWallet.js"
import { buildSignBroadcast, walletCall } from "./testing/WalletCalls.js"

const owner = wallet(21)
const trx = (n: bigint) => n * 1_000_000n
const sun = (n: bigint) => n.toString()

/** The owner is activated with 20,000 TRX. Default parameters: 10 energy per staked TRX. */
const chain = testChain({ genesisAccounts: [{ address: owner.address, trx: trx(20_000n) }] })

const invalid = (text: string) => ({ Error: `class org.tron.core.exception.ContractValidateException : ${text}` })

const freeze = (sim: Effect.Effect.Success<typeof chain>, amount: bigint, resource?: string) =>
  buildSignBroadcast(sim, "freezebalancev2", { owner_address: owner.address, frozen_balance: sun(amount), ...(resource ? { resource } : {}) }, owner)

describe("Stake 2.0 staking (freezebalancev2, unfreezebalancev2)", () => {
  it.effect("freezing for energy moves TRX into frozenV2 and gives stake / TotalEnergyWeight × TotalEnergyLimit energy", () =>
    Effect.gen(function*() {
      const sim = yield* chain
      const built = yield* walletCall(sim, "freezebalancev2", { owner_address: owner.address, frozen_balance: sun(trx(1000n)), resource: "ENERGY", visible: true })
      // The builder's reply has createtransaction's shape: an unsigned transaction, addresses as asked.
      expect(built).toMatchObject({
        visible: true,
        txID: expect.stringMatching(/^[0-9a-f]{64}$/),
        raw_data: {
          contract: [{
            type: "FreezeBalanceV2Contract",
            parameter: {
              value: { owner_address: owner.address, frozen_balance: 1_000_000_000, resource: "ENERGY" },
              type_url: "type.googleapis.com/protocol.FreezeBalanceV2Contract"
            }
          }]
        },
        raw_data_hex: expect.stringMatching(/^[0-9a-f]+$/)
      })
      expect(yield* freeze(sim, trx(1000n), "ENERGY")).toMatchObject({ result: true })
      yield* sim.mine()

      const account = yield* walletCall(sim, "getaccount", { address: owner.address, visible: true })
      expect(account.frozenV2).toEqual([{}, { type: "ENERGY", amount: 1_000_000_000 }, { type: "TRON_POWER" }])
      // Balance less the stake; the freeze's bytes came from free bandwidth.
      expect(account.balance).toBe(19_000_000_000)
      const resources = yield* walletCall(sim, "getaccountresource", { address: owner.address, visible: true })
      // 1,000 TRX × 180,000,000,000 / 18,000,000,000.
      expect(resources).toMatchObject({ EnergyLimit: 10_000, TotalEnergyLimit: 180_000_000_000, TotalEnergyWeight: 18_000_000_000 })
      expect(yield* walletCall(sim, "getcandelegatedmaxsize", { owner_address: owner.address, type: 1, visible: true })).toEqual({ max_size: 1_000_000_000 })
      expect(yield* walletCall(sim, "getcandelegatedmaxsize", { owner_address: owner.address, type: 0, visible: true })).toEqual({})
    }))

  it.effect("bandwidth is the default resource and is listed first in frozenV2", () =>
    Effect.gen(function*() {
      const sim = yield* chain
      expect(yield* freeze(sim, trx(5n))).toMatchObject({ result: true })
      yield* sim.mine()
      const account = yield* walletCall(sim, "getaccount", { address: owner.address, visible: true })
      expect(account.frozenV2).toEqual([{ amount: 5_000_000 }, { type: "ENERGY" }, { type: "TRON_POWER" }])
      expect(yield* walletCall(sim, "getcandelegatedmaxsize", { owner_address: owner.address, type: 0, visible: true })).toEqual({ max_size: 5_000_000 })
    }))

  it.effect("staked bandwidth pays a transaction's bytes before the free bandwidth, and what it uses cannot be delegated", () =>
    Effect.gen(function*() {
      const sim = yield* chain
      yield* freeze(sim, trx(1000n), "BANDWIDTH")
      yield* sim.mine()
      const before = yield* walletCall(sim, "getaccountresource", { address: owner.address, visible: true })
      // 1,000 TRX × 43,200,000,000 / 26,856,723,239, truncated.
      expect(before.NetLimit).toBe(1608)
      const freeBefore = before.freeNetUsed ?? 0
      const other = wallet(23)
      const txid = yield* signAndBroadcast(sim, yield* trxTransfer(sim, owner, other.address, trx(2n)), owner)
      yield* sim.mine()
      const info = yield* infoOf(sim, txid)
      // Creating the account: its bytes from the stake instead of the 0.1 TRX fee; the 1 TRX creation fee stays.
      expect(info.receipt.netFee).toBe(0n)
      expect(info.fee).toBe(1_000_000n)
      const after = yield* walletCall(sim, "getaccountresource", { address: owner.address, visible: true })
      expect(after.NetUsed).toBe(Number(info.receipt.netUsage))
      expect(after.freeNetUsed ?? 0).toBe(freeBefore)
      // Each byte of usage holds 26,856,723,239 / 43,200,000,000 TRX of the stake.
      const size = (yield* walletCall(sim, "getcandelegatedmaxsize", { owner_address: owner.address, type: 0, visible: true })).max_size
      expect(BigInt(size)).toBe(trx(1000n) - (BigInt(after.NetUsed) * 1_000_000n * 26_856_723_239n) / 43_200_000_000n)
      const account = yield* walletCall(sim, "getaccount", { address: owner.address, visible: true })
      expect(account).toMatchObject({ net_usage: after.NetUsed, latest_consume_time: expect.any(Number) })
    }))

  it.effect("refuses less than 1 TRX, nothing, and more than the balance, with java-tron's texts", () =>
    Effect.gen(function*() {
      const sim = yield* chain
      expect(yield* freeze(sim, 0n, "ENERGY")).toEqual(invalid("frozenBalance must be positive"))
      expect(yield* freeze(sim, 999_999n, "ENERGY")).toEqual(invalid("frozenBalance must be greater than or equal to 1 TRX"))
      expect(yield* freeze(sim, trx(20_001n), "ENERGY")).toEqual(invalid("frozenBalance must be less than or equal to accountBalance"))
      expect(yield* freeze(sim, trx(1n), "TRON_POWER")).toEqual(invalid("ResourceCode error, valid ResourceCode[BANDWIDTH、ENERGY]"))
      // Exactly 1 TRX is enough.
      expect(yield* freeze(sim, trx(1n), "ENERGY")).toMatchObject({ result: true })
    }))

  it.effect("an unknown owner is refused by the builder", () =>
    Effect.gen(function*() {
      const sim = yield* chain
      const stranger = wallet(22)
      const reply = yield* walletCall(sim, "freezebalancev2", { owner_address: stranger.address, frozen_balance: sun(trx(1n)), visible: true })
      expect(reply).toEqual(invalid(`Account[${stranger.hex}] not exists`))
    }))

  it.effect("unfreezing creates an unfrozenV2 entry withdrawable 14 days after its block, and takes the energy away", () =>
    Effect.gen(function*() {
      const sim = yield* chain
      yield* freeze(sim, trx(1000n), "ENERGY")
      yield* sim.mine()
      const reply = yield* buildSignBroadcast(sim, "unfreezebalancev2", { owner_address: owner.address, unfreeze_balance: sun(trx(400n)), resource: "ENERGY" }, owner)
      expect(reply).toMatchObject({ result: true })
      const [block] = yield* sim.mine()
      expect(block!.number).toBe(yield* headNumber(sim))

      const account = yield* walletCall(sim, "getaccount", { address: owner.address, visible: true })
      expect(account.frozenV2[1]).toEqual({ type: "ENERGY", amount: 600_000_000 })
      expect(account.unfrozenV2).toEqual([{ type: "ENERGY", unfreeze_amount: 400_000_000, unfreeze_expire_time: block!.timestamp + unfreezeDelayMs }])
      // The TRX stays out of the balance until withdrawn (withdrawing is not modelled).
      expect(account.balance).toBe(19_000_000_000)
      expect((yield* walletCall(sim, "getaccountresource", { address: owner.address, visible: true })).EnergyLimit).toBe(6_000)
    }))

  it.effect("refuses to unfreeze what is not frozen, or more than is", () =>
    Effect.gen(function*() {
      const sim = yield* chain
      const unfreeze = (amount: bigint, resource: string) =>
        buildSignBroadcast(sim, "unfreezebalancev2", { owner_address: owner.address, unfreeze_balance: sun(amount), resource }, owner)
      expect(yield* unfreeze(trx(1n), "ENERGY")).toEqual(invalid("no frozenBalance(Energy)"))
      expect(yield* unfreeze(trx(1n), "BANDWIDTH")).toEqual(invalid("no frozenBalance(BANDWIDTH)"))
      yield* freeze(sim, trx(10n), "ENERGY")
      yield* sim.mine()
      expect(yield* unfreeze(trx(11n), "ENERGY")).toEqual(invalid(`Invalid unfreeze_balance, [${trx(11n)}] is error`))
      expect(yield* unfreeze(0n, "ENERGY")).toEqual(invalid("Invalid unfreeze_balance, [0] is error"))
    }))
})
