import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TronWeb } from "tronweb"
import { usdtContracts } from "./SimConfig.js"
import { startSimNode } from "./testing/SimNode.js"
import { type SimWallet, wallet } from "./testing/SimWallet.js"

/**
 * Stake 2.0 the way a tronweb integration (and a rental provider) does it, against the
 * simulator over HTTP: tronweb's transactionBuilder builds FreezeBalanceV2, DelegateResource,
 * UnDelegateResource and UnfreezeBalanceV2 itself on a `getblock` reference, signs them and
 * broadcasts on `broadcasttransaction`; its getDelegatedResourceV2 and getCanDelegatedMaxSize
 * read the node. Then the sweep a collector makes with its own stake: energy lent to a wallet
 * with none pays its USDT transfer, and reclaiming it leaves the wallet with none again.
 */

const usdt = usdtContracts.nile
const owner = wallet(41)
const receiver = wallet(42)
const holder = wallet(43)

const control = (url: string, name: string, body: unknown = {}) =>
  Effect.promise(async () => {
    const response = await fetch(`${url}/sim/${name}`, { method: "POST", body: JSON.stringify(body) })
    expect(response.status).toBe(200)
    return (await response.json()) as any
  })

const post = (url: string, path: string, body: unknown) =>
  Effect.promise(async () => (await (await fetch(`${url}/wallet/${path}`, { method: "POST", body: JSON.stringify(body) })).json()) as any)

const clientFor = (url: string, who: SimWallet) => new TronWeb({ fullHost: url, privateKey: Buffer.from(who.secretKey).toString("hex") })

/** Signs and broadcasts what tronweb built; tronweb's sign re-checks txID against raw_data first. */
const send = (tronWeb: TronWeb, build: () => Promise<any>) =>
  Effect.promise(async () => {
    const signed = await tronWeb.trx.sign(await build())
    return { txid: signed.txID as string, reply: (await tronWeb.trx.sendRawTransaction(signed)) as any }
  })

const fullNode = { confirmed: false }

describe("tronweb's Stake 2.0 builders against the simulator", () => {
  it.scopedLive("freeze, delegate to a wallet with no energy, its USDT transfer burns no TRX, undelegate, unfreeze", () =>
    Effect.gen(function*() {
      const sim = yield* startSimNode({
        genesisAccounts: [
          { address: owner.address, trx: 20_000_000_000n },
          { address: receiver.address, trx: 1_000_000n, usdt: 50_000_000n },
          { address: holder.address, usdt: 1n }
        ]
      })
      const ownerWeb = clientFor(sim.url, owner)
      const receiverWeb = clientFor(sim.url, receiver)

      const frozen = yield* send(ownerWeb, () => ownerWeb.transactionBuilder.freezeBalanceV2(10_000_000_000, "ENERGY", owner.address))
      expect(frozen.reply).toMatchObject({ result: true, txid: frozen.txid })
      yield* control(sim.url, "mine")
      expect(yield* Effect.promise(() => ownerWeb.trx.getCanDelegatedMaxSize(owner.address, "ENERGY", fullNode))).toEqual({ max_size: 10_000_000_000 })
      expect((yield* post(sim.url, "getaccountresource", { address: receiver.address, visible: true })).EnergyLimit ?? 0).toBe(0)

      // No lock: the energy can be reclaimed as soon as the sweep is settled.
      const delegated = yield* send(ownerWeb, () => ownerWeb.transactionBuilder.delegateResource(7_000_000_000, receiver.address, "ENERGY", owner.address, false))
      expect(delegated.reply).toMatchObject({ result: true })
      yield* control(sim.url, "mine")
      expect(yield* Effect.promise(() => ownerWeb.trx.getDelegatedResourceV2(owner.address, receiver.address, fullNode))).toEqual({
        delegatedResource: [{ from: owner.hex, to: receiver.hex, frozen_balance_for_energy: 7_000_000_000 }]
      })
      expect(yield* Effect.promise(() => ownerWeb.trx.getCanDelegatedMaxSize(owner.address, "ENERGY", fullNode))).toEqual({ max_size: 3_000_000_000 })
      expect((yield* post(sim.url, "getaccountresource", { address: receiver.address, visible: true })).EnergyLimit).toBe(70_000)

      // The sweep: the receiver's USDT goes out on the delegated energy; its 1 TRX stays.
      const built = yield* Effect.promise(() =>
        receiverWeb.transactionBuilder.triggerSmartContract(usdt, "transfer(address,uint256)", { feeLimit: 30_000_000 }, [
          { type: "address", value: holder.address },
          { type: "uint256", value: "50000000" }
        ], receiver.address)
      )
      const sweep = yield* send(receiverWeb, async () => built.transaction)
      expect(sweep.reply).toMatchObject({ result: true })
      yield* control(sim.url, "mine")
      const info = (yield* Effect.promise(() => receiverWeb.trx.getUnconfirmedTransactionInfo(sweep.txid))) as any
      expect(info.receipt).toMatchObject({ energy_usage: 64_285, energy_usage_total: 64_285, result: "SUCCESS" })
      expect(info.receipt.energy_fee ?? 0).toBe(0)
      expect(info.fee ?? 0).toBe(0)
      expect(yield* Effect.promise(() => receiverWeb.trx.getUnconfirmedBalance(receiver.address))).toBe(1_000_000)

      const reclaimed = yield* send(ownerWeb, () => ownerWeb.transactionBuilder.undelegateResource(7_000_000_000, receiver.address, "ENERGY", owner.address))
      expect(reclaimed.reply).toMatchObject({ result: true })
      yield* control(sim.url, "mine")
      const receiverResources = yield* post(sim.url, "getaccountresource", { address: receiver.address, visible: true })
      expect(receiverResources.EnergyLimit ?? 0).toBe(0)
      expect(yield* Effect.promise(() => ownerWeb.trx.getDelegatedResourceV2(owner.address, receiver.address, fullNode))).toEqual({})
      // The stake is back with the owner, less the energy the sweep used, which came back as usage and
      // regenerates over 24 h (100,000 SUN of stake per energy here; ±1 energy for the live clock).
      const ownerResources = yield* post(sim.url, "getaccountresource", { address: owner.address, visible: true })
      expect(ownerResources.EnergyLimit).toBe(100_000)
      const size = (yield* Effect.promise(() => ownerWeb.trx.getCanDelegatedMaxSize(owner.address, "ENERGY", fullNode))).max_size as number
      expect(Math.abs(size - (10_000_000_000 - ownerResources.EnergyUsed * 100_000))).toBeLessThanOrEqual(100_000)
      expect(size).toBeGreaterThan(3_500_000_000)

      const unfrozen = yield* send(ownerWeb, () => ownerWeb.transactionBuilder.unfreezeBalanceV2(1_000_000_000, "ENERGY", owner.address))
      expect(unfrozen.reply).toMatchObject({ result: true })
      yield* control(sim.url, "mine", { blocks: 20 })
      // Solidified now: tronweb's default (confirmed) reads see it too.
      const account = (yield* Effect.promise(() => ownerWeb.trx.getAccount(owner.address))) as any
      expect(account.frozenV2[1]).toEqual({ type: "ENERGY", amount: 9_000_000_000 })
      expect(account.unfrozenV2).toEqual([{ type: "ENERGY", unfreeze_amount: 1_000_000_000, unfreeze_expire_time: expect.any(Number) }])
      expect(yield* Effect.promise(() => ownerWeb.trx.getDelegatedResourceV2(owner.address, receiver.address))).toEqual({})
    }))

  it.scopedLive("a refused delegation reaches tronweb as CONTRACT_VALIDATE_ERROR with java-tron's text", () =>
    Effect.gen(function*() {
      const sim = yield* startSimNode({ genesisAccounts: [{ address: owner.address, trx: 5_000_000n }, { address: receiver.address, trx: 1_000_000n }] })
      const ownerWeb = clientFor(sim.url, owner)
      const refused = yield* send(ownerWeb, () => ownerWeb.transactionBuilder.delegateResource(1_000_000, receiver.address, "ENERGY", owner.address, false))
      expect(refused.reply).toMatchObject({ code: "CONTRACT_VALIDATE_ERROR", txid: refused.txid })
      expect(ownerWeb.toUtf8(refused.reply.message)).toBe(
        "Contract validate error : delegateBalance must be less than or equal to available FreezeEnergyV2 balance"
      )
      const small = yield* send(ownerWeb, () => ownerWeb.transactionBuilder.freezeBalanceV2(999_999, "ENERGY", owner.address))
      expect(ownerWeb.toUtf8(small.reply.message)).toBe("Contract validate error : frozenBalance must be greater than or equal to 1 TRX")
    }))
})
