import { describe, expect, it } from "@effect/vitest"
import { TransactionId, TransactionRaw } from "@collector/tron"
import { defaultNodeConfig, TronNodeChain } from "@collector/tron-node"
import { FetchHttpClient, HttpClient } from "@effect/platform"
import { Effect, Either, Layer, Option } from "effect"
import { head } from "./SimState.js"
import { adapterFor, signWith, startSimNode } from "./testing/SimNode.js"
import { wallet } from "./testing/SimWallet.js"

/**
 * The production adapter (@collector/tron-node) against the simulator over real HTTP: what
 * the service would see from a java-tron node, end to end.
 */

const service = wallet(1)
const exchange = wallet(7)
const fresh = wallet(8)
const trx = (n: bigint) => n * 1_000_000n
const usdt = (n: bigint) => n * 1_000_000n

describe("TronNodeChain over the simulator", () => {
  // Head, solidified block, block transfers, accounts, receipts and parameters are the contract
  // suite's (ChainContract.sim.test.ts); these cases are the simulator-only behaviours.
  it.scopedLive("reads an account only once its block is solidified; follows the energy price", () =>
    Effect.gen(function*() {
      const sim = yield* startSimNode()
      const chain = yield* adapterFor(sim.url)
      yield* sim.chain.activate(service.address, trx(100n))
      yield* sim.chain.mintUsdt(service.address, usdt(5n))
      yield* sim.chain.mine()
      // Not solidified yet: the solidified state does not know the account.
      expect(yield* chain.account(service.address)).toMatchObject({ activated: false, trx: 0n, usdt: 0n })
      yield* sim.chain.mine(19)
      const account = yield* chain.account(service.address)
      expect(account).toMatchObject({ activated: true, trx: trx(100n), usdt: usdt(5n), freeBandwidthLimit: 600n })
      // The resource figures alone, in one call: the same as the account's.
      const { address: _, activated: __, trx: ___, usdt: ____, atBlock: _____, ...figures } = account
      expect(yield* chain.resources(service.address)).toEqual(figures)
      // An inactive address has no free bandwidth.
      expect(yield* chain.account(fresh.address)).toMatchObject({ activated: false, freeBandwidthLimit: 0n })
      yield* sim.chain.setEnergyPrice(210n)
      expect((yield* chain.parameters).energyFee).toBe(210n)
    }))

  it.scopedLive("estimates transfer energy with estimateenergy, and with triggerconstantcontract where it is off", () =>
    Effect.gen(function*() {
      const sim = yield* startSimNode({
        genesisAccounts: [{ address: service.address, trx: trx(100n), usdt: usdt(10n) }, { address: exchange.address, usdt: 1n }]
      })
      const chain = yield* adapterFor(sim.url)
      const toFresh = { from: service.address, to: fresh.address, amount: usdt(1n) }
      const toHolder = { from: service.address, to: exchange.address, amount: usdt(1n) }
      expect(yield* chain.estimateTransferEnergy(toFresh)).toBe(130_285n)
      expect(yield* chain.estimateTransferEnergy(toHolder)).toBe(64_285n)
      yield* sim.chain.setEstimateEnergy(false)
      const fallback = yield* adapterFor(sim.url)
      expect(yield* fallback.estimateTransferEnergy(toFresh)).toBe(130_285n)
      expect(yield* fallback.estimateTransferEnergy(toHolder)).toBe(64_285n)
      // More than the sender holds: the call reverts, which the adapter reports.
      expect((yield* chain.estimateTransferEnergy({ ...toHolder, amount: usdt(11n) }).pipe(Effect.flip))._tag).toBe("ChainRejected")
    }))

  it.scopedLive("builds, signs and broadcasts a transfer; a second broadcast is a duplicate; the receipt appears once solidified", () =>
    Effect.gen(function*() {
      const sim = yield* startSimNode({ genesisAccounts: [{ address: service.address, trx: trx(100n), usdt: usdt(10n) }] })
      const chain = yield* adapterFor(sim.url)
      yield* sim.chain.mine()
      const unsigned = yield* chain.buildUsdtTransfer({ from: service.address, to: fresh.address, amount: usdt(3n), feeLimit: trx(30n) })
      expect(unsigned.feeLimit).toBe(trx(30n))
      expect(unsigned.expiration.getTime()).toBe(head(yield* sim.chain.state).timestamp + 60_000)
      const signed = signWith(unsigned, service)
      expect(yield* chain.broadcast(signed)).toEqual({ _tag: "Accepted" })
      expect(yield* chain.broadcast(signed)).toEqual({ _tag: "Duplicate" })
      expect(yield* chain.receipt(unsigned.txid)).toEqual(Option.none())
      const [included] = yield* sim.chain.mine()
      // In a block, not yet solidified: the solidity node does not know it.
      expect(yield* chain.receipt(unsigned.txid)).toEqual(Option.none())
      yield* sim.chain.mine(19)
      const receipt = Option.getOrThrow(yield* chain.receipt(unsigned.txid))
      expect(receipt).toMatchObject({
        txid: unsigned.txid,
        blockNumber: included!.number,
        blockTime: new Date(included!.timestamp),
        result: "SUCCESS",
        fee: 13_028_500n,
        energyFee: 13_028_500n,
        energyUsage: 130_285n,
        bandwidthFee: 0n
      })
      expect(Number(receipt.bandwidthUsage)).toBeGreaterThan(300)
      const { transfers } = yield* chain.blockTransfers(included!.number)
      expect(transfers.map((t) => [t.txid, t.from, t.to, t.amount])).toEqual([[unsigned.txid, service.address, fresh.address, usdt(3n)]])
    }))

  it.scopedLive("an expired or wrongly signed transaction is Rejected with java-tron's code", () =>
    Effect.gen(function*() {
      const sim = yield* startSimNode({ genesisAccounts: [{ address: service.address, trx: trx(100n), usdt: usdt(10n) }] })
      const chain = yield* adapterFor(sim.url)
      const unsigned = yield* chain.buildUsdtTransfer({ from: service.address, to: fresh.address, amount: 1n, feeLimit: trx(30n) })
      expect(yield* chain.broadcast(signWith(unsigned, exchange))).toMatchObject({ _tag: "Rejected", code: "SIGERROR" })
      yield* sim.chain.mine(21)
      expect(yield* chain.broadcast(signWith(unsigned, service))).toEqual({
        _tag: "Rejected",
        code: "TRANSACTION_EXPIRATION_ERROR",
        message: "Transaction expired"
      })
    }))

  it.scopedLive("a transfer built with its own expiration keeps it, hashes to its txid, and lands; past 24 h the node refuses it", () =>
    Effect.gen(function*() {
      const sim = yield* startSimNode()
      const chain = yield* adapterFor(sim.url)
      yield* sim.chain.activate(service.address, trx(100n))
      yield* sim.chain.mintUsdt(service.address, usdt(5n))
      yield* sim.chain.mine(20)
      const headTime = (yield* chain.headBlock).timestamp.getTime()
      const expiration = new Date(headTime + 30 * 60_000)
      const unsigned = yield* chain.buildUsdtTransfer({ from: service.address, to: fresh.address, amount: 1n, feeLimit: trx(30n), expiration })
      expect(unsigned.expiration).toEqual(expiration)
      const raw = Either.getOrThrow(TransactionRaw.decodeRawDataHex(unsigned.rawDataHex))
      expect(BigInt(raw.expiration)).toBe(BigInt(expiration.getTime()))
      expect(unsigned.txid).toBe(TransactionId.compute(Buffer.from(unsigned.rawDataHex, "hex")))
      expect(yield* chain.broadcast(signWith(unsigned, service))).toEqual({ _tag: "Accepted" })
      yield* sim.chain.mine(20)
      expect(Option.map(yield* chain.receipt(unsigned.txid), (r) => r.result)).toEqual(Option.some("SUCCESS"))
      const tooLate = yield* chain.buildUsdtTransfer({
        from: service.address,
        to: fresh.address,
        amount: 1n,
        feeLimit: trx(30n),
        expiration: new Date((yield* chain.headBlock).timestamp.getTime() + 25 * 3_600_000)
      })
      expect(yield* chain.broadcast(signWith(tooLate, service))).toMatchObject({ _tag: "Rejected", code: "TRANSACTION_EXPIRATION_ERROR" })
    }))

  it.scopedLive("a transfer built here from a reference block makes no node call, lands, and is refused once its block left the chain", () =>
    Effect.gen(function*() {
      const sim = yield* startSimNode({ genesisAccounts: [{ address: service.address, trx: trx(100n), usdt: usdt(10n) }] })
      let calls = 0
      const counting = Layer.effect(HttpClient.HttpClient, Effect.map(HttpClient.HttpClient, HttpClient.tapRequest(() => Effect.sync(() => calls++))))
      const chain = yield* TronNodeChain.make(defaultNodeConfig("nile", { fullNodeUrl: sim.url, solidityUrl: sim.url, retries: 0, requestsPerSecond: 1000 }))
        .pipe(Effect.provide(counting.pipe(Layer.provide(FetchHttpClient.layer))))
      yield* sim.chain.mine(20)
      const solidified = yield* chain.solidifiedBlock
      const head = yield* chain.headBlock
      const expiration = new Date(head.timestamp.getTime() + 5 * 60_000)
      const before = calls
      const unsigned = yield* chain.buildUsdtTransfer({ from: service.address, to: fresh.address, amount: usdt(2n), feeLimit: trx(30n), expiration, reference: solidified })
      expect(calls).toBe(before)
      expect(unsigned).toMatchObject({ expiration, feeLimit: trx(30n) })
      const raw = Either.getOrThrow(TransactionRaw.decodeRawDataHex(unsigned.rawDataHex, { visible: true }))
      expect(raw).toMatchObject({
        ref_block_bytes: solidified.hash.slice(12, 16),
        ref_block_hash: solidified.hash.slice(16, 32),
        fee_limit: Number(trx(30n)),
        contract: [{ type: "TriggerSmartContract", parameter: { value: { owner_address: service.address, contract_address: defaultNodeConfig("nile").usdtContract } } }]
      })
      expect(unsigned.txid).toBe(TransactionId.compute(Buffer.from(unsigned.rawDataHex, "hex")))
      expect(yield* chain.broadcast(signWith(unsigned, service))).toEqual({ _tag: "Accepted" })
      yield* sim.chain.mine(20)
      const { transfers } = yield* chain.blockTransfers(Option.getOrThrow(yield* chain.receipt(unsigned.txid)).blockNumber)
      expect(transfers.map((t) => [t.txid, t.from, t.to, t.amount])).toEqual([[unsigned.txid, service.address, fresh.address, usdt(2n)]])
      // A reference block the chain does not have (as after a reorganisation dropped it).
      const gone = { ...solidified, hash: solidified.hash.slice(0, 16) + "ff".repeat(8) + solidified.hash.slice(32) }
      const orphan = yield* chain.buildUsdtTransfer({ from: service.address, to: fresh.address, amount: 1n, feeLimit: trx(30n), expiration, reference: gone })
      expect(yield* chain.broadcast(signWith(orphan, service))).toMatchObject({ _tag: "Rejected", code: "TAPOS_ERROR" })
      // Bad input is refused before anything is built.
      const notABlock = yield* chain.buildUsdtTransfer({ from: service.address, to: fresh.address, amount: 1n, feeLimit: trx(30n), expiration, reference: { ...solidified, hash: "00" } }).pipe(Effect.flip)
      expect(notABlock.reason).toBe("not a block ID: 00")
      const otherNumber = yield* chain.buildUsdtTransfer({ from: service.address, to: fresh.address, amount: 1n, feeLimit: trx(30n), expiration, reference: { ...solidified, number: solidified.number + 1n } }).pipe(Effect.flip)
      expect(otherNumber.reason).toBe(`block ID ${solidified.hash} is not block ${solidified.number + 1n}`)
      const noTime = yield* chain.buildUsdtTransfer({ from: service.address, to: fresh.address, amount: 1n, feeLimit: trx(30n), expiration: new Date(Number.NaN), reference: solidified }).pipe(Effect.flip)
      expect(noTime.reason).toBe("expiration out of range: Invalid Date")
      const badRecipient = yield* chain.buildUsdtTransfer({ from: service.address, to: "Tnope", amount: 1n, feeLimit: trx(30n), expiration, reference: solidified }).pipe(Effect.flip)
      expect(badRecipient.reason).toContain("cannot build a transfer of 1 to Tnope: recipient must be a Base58Check TRON address")
    }))

  it.scopedLive("a landed transaction sent again after its expiration is Rejected as expired, not Duplicate", () =>
    Effect.gen(function*() {
      const sim = yield* startSimNode({ genesisAccounts: [{ address: service.address, trx: trx(100n), usdt: usdt(10n) }] })
      const chain = yield* adapterFor(sim.url)
      const signed = signWith(yield* chain.buildUsdtTransfer({ from: service.address, to: fresh.address, amount: 1n, feeLimit: trx(30n) }), service)
      expect(yield* chain.broadcast(signed)).toEqual({ _tag: "Accepted" })
      yield* sim.chain.mine(25)
      expect(Option.isSome(yield* chain.receipt(signed.txid))).toBe(true)
      // java-tron checks expiration before duplicates: only the receipt tells that it landed.
      expect(yield* chain.broadcast(signed)).toMatchObject({ _tag: "Rejected", code: "TRANSACTION_EXPIRATION_ERROR" })
    }))

  it.scopedLive("a transfer with too low a fee limit ends OUT_OF_ENERGY: the fee limit is burned and no Transfer counts", () =>
    Effect.gen(function*() {
      const sim = yield* startSimNode({ genesisAccounts: [{ address: service.address, trx: trx(100n), usdt: usdt(10n) }] })
      const chain = yield* adapterFor(sim.url)
      // 1 TRX buys 10,000 energy at 100 SUN: far below the 130,285 a transfer to an empty address needs.
      const unsigned = yield* chain.buildUsdtTransfer({ from: service.address, to: fresh.address, amount: usdt(3n), feeLimit: trx(1n) })
      expect(yield* chain.broadcast(signWith(unsigned, service))).toEqual({ _tag: "Accepted" })
      const [included] = yield* sim.chain.mine()
      yield* sim.chain.mine(19)
      const receipt = Option.getOrThrow(yield* chain.receipt(unsigned.txid))
      expect(receipt).toMatchObject({ result: "OUT_OF_ENERGY", blockNumber: included!.number, energyFee: trx(1n) })
      expect((yield* chain.blockTransfers(included!.number)).transfers).toEqual([])
      expect(yield* chain.account(service.address)).toMatchObject({ trx: trx(99n), usdt: usdt(10n) })
    }))

  it.scopedLive("a sender without bandwidth or TRX to burn is Rejected with BANDWITH_ERROR", () =>
    Effect.gen(function*() {
      // 1 SUN: the first transfer fits the day's 600 free bandwidth, the second has none left and nothing to burn.
      const sim = yield* startSimNode({ genesisAccounts: [{ address: service.address, trx: 1n, usdt: usdt(10n) }] })
      const chain = yield* adapterFor(sim.url)
      const send = Effect.gen(function*() {
        const unsigned = yield* chain.buildUsdtTransfer({ from: service.address, to: exchange.address, amount: 1n, feeLimit: trx(50n) })
        return yield* chain.broadcast(signWith(unsigned, service))
      })
      expect(yield* send).toEqual({ _tag: "Accepted" })
      yield* sim.chain.mine()
      expect(yield* send).toEqual({ _tag: "Rejected", code: "BANDWITH_ERROR", message: "Account resource insufficient error." })
    }))

  it.scopedLive("a failing node is ChainUnavailable until the outage ends", () =>
    Effect.gen(function*() {
      const sim = yield* startSimNode()
      const chain = yield* adapterFor(sim.url)
      yield* sim.chain.fail("error", 60_000)
      expect((yield* chain.headBlock.pipe(Effect.flip))._tag).toBe("ChainUnavailable")
      yield* sim.chain.fail("error", 0)
      expect((yield* chain.headBlock).number).toBe(1_000_000n)
    }))

  it.scopedLive("a lost reply: the broadcast is carried out, the caller sees the connection close, and the transaction lands", () =>
    Effect.gen(function*() {
      const sim = yield* startSimNode({ genesisAccounts: [{ address: service.address, trx: trx(100n), usdt: usdt(10n) }] })
      const chain = yield* adapterFor(sim.url)
      yield* sim.chain.mine()
      const signed = signWith(yield* chain.buildUsdtTransfer({ from: service.address, to: fresh.address, amount: usdt(1n), feeLimit: trx(30n) }), service)
      yield* sim.chain.loseNextReplies(1, "/wallet/broadcast")
      // Other calls are answered: the armed loss waits for a broadcast.
      expect((yield* chain.headBlock).number).toBe(1_000_001n)
      expect((yield* chain.broadcast(signed).pipe(Effect.flip))._tag).toBe("ChainUnavailable")
      expect(yield* chain.broadcast(signed)).toEqual({ _tag: "Duplicate" })
      const [included] = yield* sim.chain.mine()
      expect(included!.transactions.map(({ tx }) => tx.txid)).toEqual([signed.txid])
    }))

  it.scopedLive("a reorganisation shows as a new hash at the same height and a new parent above the fork", () =>
    Effect.gen(function*() {
      const sim = yield* startSimNode()
      const chain = yield* adapterFor(sim.url)
      yield* sim.chain.mine(5)
      const before = yield* chain.blockTransfers(1_000_004n)
      yield* sim.chain.reorg(2)
      const after = yield* chain.blockTransfers(1_000_004n)
      expect(after.block.hash).not.toBe(before.block.hash)
      expect(after.block.parentHash).toBe((yield* chain.blockTransfers(1_000_003n)).block.hash)
      expect((yield* chain.headBlock).number).toBe(1_000_006n)
    }))
})
