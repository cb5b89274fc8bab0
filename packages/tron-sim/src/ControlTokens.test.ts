import { NodeTransaction, Trc20Call } from "@collector/tron"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { batchMintSelector, batchTransferSelector } from "./TokenBatch.js"
import { startSimNode } from "./testing/SimNode.js"
import { wallet } from "./testing/SimWallet.js"

/**
 * `/sim/batch-transfer` and `/sim/other-token-transfer` over HTTP, read back the way a scanner
 * reads them: `gettransactioninfobyblocknum` receipts and detailed blocks, exactly as printed.
 */

const alice = wallet(1)
const bob = wallet(2)
const carol = wallet(3)
const usdtHex20 = "eca9bc828a3005b9a3b909f2cc5c2a54794de05f"
const otherHex20 = "c2dda3e5461893f445a0f0bef17b80c37e302799"
const word = (hex21: string) => hex21.slice(2).padStart(64, "0")
const amountWord = (n: number) => n.toString(16).padStart(64, "0")
const zero = "00".repeat(32)

const post = (url: string, body: unknown = {}) =>
  Effect.promise(async () => {
    const response = await fetch(url, { method: "POST", body: JSON.stringify(body) })
    return { status: response.status, body: (await response.json()) as any }
  })

describe("control API: several logs in one transaction, another token", () => {
  it.scopedLive("/sim/batch-transfer lands ONE transaction whose SUCCESS receipt has one USDT log per item", () =>
    Effect.gen(function*() {
      const sim = yield* startSimNode()
      const minted = yield* post(`${sim.url}/sim/batch-transfer`, {
        transfers: [{ to: alice.address, amount: "3000000" }, { to: bob.hex, amount: 1_000_000 }]
      })
      expect(minted).toMatchObject({ status: 200, body: { ok: true, txid: expect.stringMatching(/^[0-9a-f]{64}$/) } })
      const [block] = (yield* post(`${sim.url}/sim/mine`)).body.blocks
      expect(block.transactions).toBe(1)
      const sent = yield* post(`${sim.url}/sim/batch-transfer`, {
        from: alice.address,
        transfers: [{ to: carol.address, amount: 1_250_000 }, { to: bob.address, amount: 750_000 }, { to: carol.address, amount: 1 }]
      })
      expect(sent.body.ok).toBe(true)
      const [second] = (yield* post(`${sim.url}/sim/mine`)).body.blocks

      const receipts = (yield* post(`${sim.url}/wallet/gettransactioninfobyblocknum`, { num: second.number })).body
      const timestamp = (yield* post(`${sim.url}/wallet/getblockbynum`, { num: second.number })).body.block_header.raw_data.timestamp
      expect(receipts).toEqual([{
        id: sent.body.txid,
        blockNumber: second.number,
        blockTimeStamp: timestamp,
        contractResult: [zero],
        contract_address: "41" + usdtHex20,
        // Fresh slot, then two overwritten ones, penalties included.
        receipt: { energy_usage: 130_285 + 2 * 64_285, energy_usage_total: 130_285 + 2 * 64_285, result: "SUCCESS", energy_penalty_total: 100_635 + 2 * 49_635 },
        log: [
          { address: usdtHex20, topics: [Trc20Call.transferTopic, word(alice.hex), word(carol.hex)], data: amountWord(1_250_000) },
          { address: usdtHex20, topics: [Trc20Call.transferTopic, word(alice.hex), word(bob.hex)], data: amountWord(750_000) },
          { address: usdtHex20, topics: [Trc20Call.transferTopic, word(alice.hex), word(carol.hex)], data: amountWord(1) }
        ]
      }])
      const mintReceipt = (yield* post(`${sim.url}/wallet/gettransactioninfobyid`, { value: minted.body.txid })).body
      expect(mintReceipt.log.map((log: any) => log.topics.slice(1))).toEqual([[zero, word(alice.hex)], [zero, word(bob.hex)]])

      // The transaction in the block: raw_data and raw_data_hex agree byte for byte and hash to the txID.
      const detailed = (yield* post(`${sim.url}/wallet/getblock`, { id_or_num: String(second.number), detail: true })).body
      const [tx] = detailed.transactions
      expect(tx).toMatchObject({ txID: sent.body.txid, ret: [{ contractRet: "SUCCESS" }] })
      expect(Either.isRight(NodeTransaction.verify(tx))).toBe(true)
      expect(tx.raw_data.contract[0].parameter.value).toMatchObject({ owner_address: alice.hex, contract_address: "41" + usdtHex20 })
      expect(tx.raw_data.contract[0].parameter.value.data.slice(0, 8)).toBe(batchTransferSelector)
      const mintBlock = (yield* post(`${sim.url}/wallet/getblock`, { id_or_num: String(block.number), detail: true })).body
      expect(mintBlock.transactions[0].raw_data.contract[0].parameter.value.data.slice(0, 8)).toBe(batchMintSelector)

      const balance = (of: typeof alice) =>
        Effect.map(
          post(`${sim.url}/wallet/triggerconstantcontract`, {
            owner_address: of.address,
            contract_address: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf",
            function_selector: "balanceOf(address)",
            parameter: word(of.hex),
            visible: true
          }),
          (reply) => BigInt("0x" + reply.body.constant_result[0])
        )
      expect([yield* balance(alice), yield* balance(bob), yield* balance(carol)]).toEqual([999_999n, 1_750_000n, 1_250_001n])
    }))

  it.scopedLive("/sim/batch-transfer answers 400 for what it cannot do", () =>
    Effect.gen(function*() {
      const sim = yield* startSimNode()
      const refused = (body: unknown) => Effect.map(post(`${sim.url}/sim/batch-transfer`, body), (reply) => [reply.status, reply.body.error])
      expect(yield* refused({})).toEqual([400, "transfers must be a non-empty array of {to, amount}"])
      expect(yield* refused({ transfers: [] })).toEqual([400, "transfers must be a non-empty array of {to, amount}"])
      expect(yield* refused({ transfers: ["x"] })).toEqual([400, "transfers[0] must be an object {to, amount}"])
      expect(yield* refused({ transfers: [{ to: alice.address, amount: 1 }, { to: bob.address }] })).toEqual([
        400,
        "transfers[1]: amount must be an integer (a JSON number or a digit string)"
      ])
      expect(yield* refused({ from: alice.address, transfers: [{ to: bob.address, amount: 1 }] })).toEqual([
        400,
        `${alice.hex} holds 0 USDT units, cannot send 1`
      ])
      expect((yield* post(`${sim.url}/sim/state`)).body.pending).toBe(0)
    }))

  it.scopedLive("/sim/other-token-transfer emits a Transfer log from the other token's address, named in /sim/state", () =>
    Effect.gen(function*() {
      const sim = yield* startSimNode()
      const state = (yield* post(`${sim.url}/sim/state`)).body
      expect(state).toMatchObject({ usdtContract: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf", otherTokenContract: "TTjZc785R2A88G71nSv9KYagYw5U7GL6cE" })
      const minted = (yield* post(`${sim.url}/sim/other-token-transfer`, { to: alice.address, amount: 900 })).body
      const deposit = (yield* post(`${sim.url}/sim/transfer`, { token: "USDT", from: alice.address, to: bob.address, amount: 1 })).body
      expect(deposit.error).toBe(`${alice.hex} holds 0 USDT units, cannot send 1`)
      yield* post(`${sim.url}/sim/mine`)
      const sent = (yield* post(`${sim.url}/sim/other-token-transfer`, { from: alice.address, to: bob.address, amount: "400" })).body
      const [block] = (yield* post(`${sim.url}/sim/mine`)).body.blocks
      const [receipt] = (yield* post(`${sim.url}/wallet/gettransactioninfobyblocknum`, { num: block.number })).body
      expect(receipt).toMatchObject({
        id: sent.txid,
        contract_address: "41" + otherHex20,
        receipt: { result: "SUCCESS" },
        log: [{ address: otherHex20, topics: [Trc20Call.transferTopic, word(alice.hex), word(bob.hex)], data: amountWord(400) }]
      })
      expect(receipt.result).toBeUndefined()
      const visible = (yield* post(`${sim.url}/wallet/gettransactioninfobyid`, { value: minted.txid, visible: true })).body
      expect(visible.log[0].address).toBe("TTjZc785R2A88G71nSv9KYagYw5U7GL6cE")
      const otherBalance = (yield* post(`${sim.url}/wallet/triggerconstantcontract`, {
        owner_address: bob.address,
        contract_address: "TTjZc785R2A88G71nSv9KYagYw5U7GL6cE",
        function_selector: "balanceOf(address)",
        parameter: word(bob.hex),
        visible: true
      })).body
      expect(BigInt("0x" + otherBalance.constant_result[0])).toBe(400n)
      expect((yield* post(`${sim.url}/sim/other-token-transfer`, { from: bob.address, to: alice.address, amount: 401 })).body.error).toBe(
        `${bob.hex} holds 400 other-token units, cannot send 401`
      )
    }))

  it.scopedLive("/sim/mint-alongside lands ONE transaction with the other token's log first and USDT's second", () =>
    Effect.gen(function*() {
      const sim = yield* startSimNode()
      const minted = (yield* post(`${sim.url}/sim/mint-alongside`, { to: alice.address, amount: "2500000", other_amount: 11 })).body
      const [block] = (yield* post(`${sim.url}/sim/mine`)).body.blocks
      expect(block.transactions).toBe(1)
      const [receipt] = (yield* post(`${sim.url}/wallet/gettransactioninfobyblocknum`, { num: block.number })).body
      expect(receipt).toMatchObject({
        id: minted.txid,
        contract_address: "41" + usdtHex20,
        receipt: { result: "SUCCESS" },
        log: [
          { address: otherHex20, topics: [Trc20Call.transferTopic, zero, word(alice.hex)], data: amountWord(11) },
          { address: usdtHex20, topics: [Trc20Call.transferTopic, zero, word(alice.hex)], data: amountWord(2_500_000) }
        ]
      })
      const missing = yield* post(`${sim.url}/sim/mint-alongside`, { to: alice.address, amount: 1 })
      expect(missing.status).toBe(400)
      expect(missing.body.error).toMatch(/other_amount/)
    }))

  it.scopedLive("/sim/mint of 0 lands a Transfer log of value 0; /sim/blacklist freezes an address, as triggerconstantcontract isBlackListed then reads", () =>
    Effect.gen(function*() {
      const sim = yield* startSimNode()
      const zeroMint = yield* post(`${sim.url}/sim/mint`, { to: alice.address, amount: "0" })
      expect(zeroMint.body.ok).toBe(true)
      const listed = yield* post(`${sim.url}/sim/blacklist`, { address: bob.address })
      expect(listed.body.ok).toBe(true)
      expect((yield* post(`${sim.url}/sim/blacklist`, { address: bob.address, listed: "yes" })).status).toBe(400)
      const [block] = (yield* post(`${sim.url}/sim/mine`)).body.blocks
      const receipts = (yield* post(`${sim.url}/wallet/gettransactioninfobyblocknum`, { num: block.number })).body
      expect(receipts.find((r: { id: string }) => r.id === zeroMint.body.txid).log).toEqual([
        { address: usdtHex20, topics: [Trc20Call.transferTopic, zero, word(alice.hex)], data: zero }
      ])
      const isListed = (who: { address: string }) =>
        Effect.map(post(`${sim.url}/wallet/triggerconstantcontract`, {
          owner_address: who.address,
          contract_address: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf",
          function_selector: "isBlackListed(address)",
          parameter: word(who === bob ? bob.hex : carol.hex),
          visible: true
        }), (reply) => reply.body.constant_result?.[0])
      expect(yield* isListed(bob)).toBe(amountWord(1))
      expect(yield* isListed(carol)).toBe(amountWord(0))
    }))
})
