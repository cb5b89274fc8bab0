import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TronWeb } from "tronweb"
import { usdtContracts } from "./SimConfig.js"
import { startSimNode } from "./testing/SimNode.js"
import { wallet } from "./testing/SimWallet.js"

/**
 * tronweb, the client most TRON integrations use, against the simulator over HTTP: it builds a
 * USDT transfer on `triggersmartcontract`, re-checks the node's raw_data against raw_data_hex
 * and txID before signing, broadcasts on `broadcasttransaction`, reads receipts and balances
 * from `/walletsolidity` and builds TRX transfers itself on a `getblock` reference. Blocks come
 * from `/sim/mine`, money from `/sim/mint` and `/sim/activate`.
 */

const usdt = usdtContracts.nile
const sender = wallet(11)
const holder = wallet(12)
const newcomer = wallet(13)

const transferTopic = "ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"

/** A 20-byte address as a 32-byte log topic (no 41 prefix, left-padded). */
const topicOf = (hex21: string) => hex21.slice(2).padStart(64, "0")

const word = (value: bigint) => value.toString(16).padStart(64, "0")

/** POSTs to the control API and returns the parsed reply; fails the test on a non-200. */
const control = (url: string, name: string, body: unknown = {}) =>
  Effect.promise(async () => {
    const response = await fetch(`${url}/sim/${name}`, { method: "POST", body: JSON.stringify(body) })
    const reply = await response.json()
    expect(response.status, JSON.stringify(reply)).toBe(200)
    return reply as any
  })

/** Enough blocks to include what is pending and solidify it (solidified = head - 19). */
const mineAndSolidify = (url: string) => control(url, "mine", { blocks: 20 })

const clientFor = (url: string) => new TronWeb({ fullHost: url, privateKey: Buffer.from(sender.secretKey).toString("hex") })

const usdtBalance = (tronWeb: TronWeb, of: string) =>
  Effect.promise(async () => {
    const call = await tronWeb.transactionBuilder.triggerConstantContract(usdt, "balanceOf(address)", {}, [{ type: "address", value: of }], sender.address)
    expect(call.result.result).toBe(true)
    return BigInt("0x" + call.constant_result[0])
  })

/** Builds, signs and broadcasts a USDT transfer the way a tronweb integration does; the signed transaction and the broadcast reply. */
const sendUsdt = (tronWeb: TronWeb, to: string, amount: bigint) =>
  Effect.promise(async () => {
    const built = await tronWeb.transactionBuilder.triggerSmartContract(
      usdt,
      "transfer(address,uint256)",
      { feeLimit: 30_000_000 },
      [{ type: "address", value: to }, { type: "uint256", value: amount.toString() }],
      sender.address
    )
    expect(built.result.result).toBe(true)
    // tronweb's sign refuses a transaction whose raw_data, raw_data_hex and txID disagree.
    const signed = await tronWeb.trx.sign(built.transaction)
    const broadcast = await tronWeb.trx.sendRawTransaction(signed)
    return { signed, broadcast: broadcast as any }
  })

const receiptOf = (tronWeb: TronWeb, txid: string) => Effect.promise(async () => (await tronWeb.trx.getTransactionInfo(txid)) as any)

describe("tronweb against the simulator", () => {
  it.scopedLive("transfers USDT: triggersmartcontract, sign, sendRawTransaction, receipt with the Transfer log", () =>
    Effect.gen(function*() {
      const sim = yield* startSimNode()
      const tronWeb = clientFor(sim.url)
      yield* control(sim.url, "mint", { to: sender.address, amount: "100000000" })
      yield* control(sim.url, "activate", { address: sender.address, trx: 100_000_000 })
      yield* control(sim.url, "activate", { address: holder.address })
      yield* control(sim.url, "mine")

      // To an address without USDT: the fresh storage slot costs 130,285 energy, all burned.
      const first = yield* sendUsdt(tronWeb, holder.address, 1_500_000n)
      expect(first.broadcast).toMatchObject({ result: true, txid: first.signed.txID })
      const mined = yield* control(sim.url, "mine", { blocks: 1 })
      expect(mined.blocks[0].transactions).toBe(1)
      // Not solidified yet: the solidity node does not know it, the full node does.
      expect(yield* receiptOf(tronWeb, first.signed.txID)).toEqual({})
      const unconfirmed = (yield* Effect.promise(() => tronWeb.trx.getUnconfirmedTransactionInfo(first.signed.txID))) as any
      expect(unconfirmed.id).toBe(first.signed.txID)
      yield* control(sim.url, "mine", { blocks: 19 })

      const info = yield* receiptOf(tronWeb, first.signed.txID)
      expect(info).toMatchObject({
        id: first.signed.txID,
        blockNumber: mined.blocks[0].number,
        contract_address: tronWeb.address.toHex(usdt).toLowerCase(),
        receipt: { result: "SUCCESS", energy_usage_total: 130_285, energy_fee: 13_028_500, net_usage: expect.any(Number) },
        // As mainnet USDT's recorded receipts: the transfer's returned word is zero.
        contractResult: [word(0n)]
      })
      expect(info.log).toEqual([{
        address: tronWeb.address.toHex(usdt).slice(2).toLowerCase(),
        topics: [transferTopic, topicOf(sender.hex), topicOf(holder.hex)],
        data: word(1_500_000n)
      }])
      const included = (yield* Effect.promise(() => tronWeb.trx.getTransaction(first.signed.txID))) as any
      // tronweb writes the recovery byte in upper case (`…1C`); the node prints bytes as lower-case hex.
      const signature = first.signed.signature!.map((text) => text.toLowerCase())
      expect(included).toMatchObject({ txID: first.signed.txID, ret: [{ contractRet: "SUCCESS" }], signature })

      expect(yield* usdtBalance(tronWeb, holder.address)).toBe(1_500_000n)
      expect(yield* usdtBalance(tronWeb, sender.address)).toBe(98_500_000n)
      expect(yield* Effect.promise(() => tronWeb.trx.getBalance(sender.address))).toBe(100_000_000 - 13_028_500)

      // To a holder: 64,285 energy. The same signed transaction again is a duplicate.
      const second = yield* sendUsdt(tronWeb, holder.address, 500_000n)
      expect(second.broadcast.result).toBe(true)
      yield* control(sim.url, "mine")
      const again = (yield* Effect.promise(() => tronWeb.trx.sendRawTransaction(second.signed))) as any
      expect(again).toMatchObject({ code: "DUP_TRANSACTION_ERROR", txid: second.signed.txID })
      expect(tronWeb.toUtf8(again.message)).toBe("Dup transaction.")
      yield* control(sim.url, "mine", { blocks: 19 })
      // 60 s of blocks later the same bytes have expired, which java-tron checks first.
      const late = (yield* Effect.promise(() => tronWeb.trx.sendRawTransaction(second.signed))) as any
      expect(late).toMatchObject({ code: "TRANSACTION_EXPIRATION_ERROR", txid: second.signed.txID })
      expect(yield* receiptOf(tronWeb, second.signed.txID)).toMatchObject({ receipt: { result: "SUCCESS", energy_usage_total: 64_285 } })
      expect(yield* usdtBalance(tronWeb, holder.address)).toBe(2_000_000n)
    }))

  it.scopedLive("sends TRX with trx.sendTransaction, activating the recipient", () =>
    Effect.gen(function*() {
      const sim = yield* startSimNode()
      const tronWeb = clientFor(sim.url)
      yield* control(sim.url, "activate", { address: sender.address, trx: 10_000_000 })
      yield* mineAndSolidify(sim.url)
      expect(yield* Effect.promise(() => tronWeb.trx.getAccount(newcomer.address))).toEqual({})

      // tronweb builds the TransferContract itself, referencing the head from `getblock`.
      const sent = (yield* Effect.promise(() => tronWeb.trx.sendTransaction(newcomer.address, 2_000_000))) as any
      expect(sent).toMatchObject({ result: true, txid: expect.stringMatching(/^[0-9a-f]{64}$/) })
      yield* mineAndSolidify(sim.url)

      const info = yield* receiptOf(tronWeb, sent.txid)
      // Creating an account: 1 TRX in the contract plus 0.1 TRX for its bandwidth.
      expect(info).toMatchObject({ id: sent.txid, fee: 1_100_000, receipt: { net_fee: 100_000 } })
      const account = (yield* Effect.promise(() => tronWeb.trx.getAccount(newcomer.address))) as any
      expect(account).toMatchObject({ address: newcomer.hex, balance: 2_000_000, create_time: expect.any(Number) })
      expect(yield* Effect.promise(() => tronWeb.trx.getBalance(newcomer.address))).toBe(2_000_000)
      expect(yield* Effect.promise(() => tronWeb.trx.getBalance(sender.address))).toBe(10_000_000 - 2_000_000 - 1_100_000)
    }))
})
