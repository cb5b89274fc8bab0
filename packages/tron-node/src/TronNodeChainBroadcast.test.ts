import { Chain } from "@collector/core"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { HttpResponse } from "msw"
import { fixture, fixtureText, makeFakeNode, solidityUrl } from "./testing/FakeNode.js"
import { chainWith, hexOf, useFakeNodeServer } from "./testing/TestChain.js"
import { signedTransactionHex } from "./SignedTransaction.js"

const server = useFakeNodeServer()

describe("TronNodeChain broadcast and receipts", () => {
  const recorded = fixture("shasta_broadcasttransaction_trc20_transfer.request.json")
  const signed: Chain.SignedTransaction = {
    txid: recorded.txID,
    rawDataHex: recorded.raw_data_hex,
    expiration: new Date(recorded.raw_data.expiration),
    feeLimit: BigInt(recorded.raw_data.fee_limit),
    signatures: recorded.signature
  }

  it.live("broadcasts the signed bytes with broadcasthex: result true is Accepted", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/broadcasthex", fixtureText("shasta_broadcasttransaction.response.json"))
      expect(yield* (yield* chainWith()).broadcast(signed)).toEqual({ _tag: "Accepted" })
      expect(node.seen[0]!.body).toEqual({ transaction: Option.getOrThrow(signedTransactionHex(recorded.raw_data_hex, recorded.signature)) })
    }))

  it.live("maps DUP_TRANSACTION_ERROR to Duplicate and other codes to Rejected with the decoded message", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      const replies: ReadonlyArray<unknown> = [
        { result: false, code: "DUP_TRANSACTION_ERROR", message: hexOf("dup transaction"), txid: recorded.txID },
        { code: "SIGERROR", message: hexOf("Validate signature error: miss sig or contract"), txid: recorded.txID },
        // broadcasthex prints every field and a plain-text message.
        { result: false, code: "TAPOS_ERROR", message: "Tapos check error", transaction: "{}", txid: recorded.txID },
        { Error: "class com.google.protobuf.InvalidProtocolBufferException : While parsing a protocol message, the input ended unexpectedly" }
      ]
      let i = 0
      node.on("/wallet/broadcasthex", () => replies[i++])
      const chain = yield* chainWith()
      expect(yield* chain.broadcast(signed)).toEqual({ _tag: "Duplicate" })
      expect(yield* chain.broadcast(signed)).toEqual({
        _tag: "Rejected",
        code: "SIGERROR",
        message: "Validate signature error: miss sig or contract"
      })
      expect(yield* chain.broadcast(signed)).toEqual({ _tag: "Rejected", code: "TAPOS_ERROR", message: "Tapos check error" })
      expect(yield* chain.broadcast(signed)).toEqual({
        _tag: "Rejected",
        code: "InvalidProtocolBufferException",
        message: "While parsing a protocol message, the input ended unexpectedly"
      })
    }))

  it.live("sends a broadcast once: a 503 or an unreadable reply leaves the outcome unknown", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      let i = 0
      node.on("/wallet/broadcasthex", () => (i++ === 0 ? new HttpResponse("busy", { status: 503 }) : "<html>"))
      const chain = yield* chainWith()
      expect(yield* chain.broadcast(signed).pipe(Effect.flip)).toEqual(new Chain.ChainUnavailable({ reason: "/wallet/broadcasthex: HTTP 503" }))
      expect(node.seen).toHaveLength(1)
      expect((yield* chain.broadcast(signed).pipe(Effect.flip))._tag).toBe("ChainUnavailable")
      expect(node.seen).toHaveLength(2)
    }))

  it.live("rejects a transaction whose hex cannot be encoded without sending anything", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/broadcasthex", fixtureText("shasta_broadcasttransaction.response.json"))
      const chain = yield* chainWith()
      expect(yield* chain.broadcast({ ...signed, signatures: ["not hex"] })).toEqual({
        _tag: "Rejected",
        code: "MALFORMED_TRANSACTION",
        message: "raw_data and signatures must be even-length hex"
      })
      expect(yield* chain.broadcast({ ...signed, rawDataHex: signed.rawDataHex.slice(1) })).toMatchObject({ _tag: "Rejected" })
      expect(node.seen).toHaveLength(0)
    }))

  // The recorded USDT receipt and {} are the contract suite's (ChainContract.fixtures.test.ts).
  it.live("reads receipts from the solidity node by lower-case id: out of energy, and a plain TRX transfer", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      const infos: Record<string, string> = {
        e63a324a43aebfe41273db4f7fdfe325b2257b4f5711595a5fc0f8a75cf1b481: fixtureText("mainnet_gettransactioninfobyid_usdt_out_of_energy_e63a324a.json"),
        "2389719608ed69f7ec3e72c1abb92acaa43b7175f3062f4ebc6e2e02cc82d0d2": fixtureText("mainnet_gettransactioninfobyid_trx_transfer_23897196.json")
      }
      node.on("/walletsolidity/gettransactioninfobyid", (body: { value: string }) => infos[body.value] ?? {})
      const chain = yield* chainWith()
      expect(yield* chain.receipt("E63A324A43AEBFE41273DB4F7FDFE325B2257B4F5711595A5FC0F8A75CF1B481")).toEqual(Option.some({
        txid: "e63a324a43aebfe41273db4f7fdfe325b2257b4f5711595a5fc0f8a75cf1b481",
        blockNumber: 66860010n,
        blockTime: new Date(1731229605000),
        result: "OUT_OF_ENERGY",
        fee: 16500120n,
        energyFee: 16500120n,
        energyUsage: 78572n,
        bandwidthFee: 0n,
        bandwidthUsage: 345n
      }))
      // A plain TRX transfer has no receipt.result and no fee: it succeeded, for free.
      expect(yield* chain.receipt("2389719608ed69f7ec3e72c1abb92acaa43b7175f3062f4ebc6e2e02cc82d0d2")).toEqual(Option.some(
        expect.objectContaining({ result: "SUCCESS", fee: 0n, bandwidthUsage: 265n })
      ))
      expect(node.seen.every((r) => r.url.startsWith(solidityUrl))).toBe(true)
      expect(node.seen[0]!.body).toEqual({ value: "e63a324a43aebfe41273db4f7fdfe325b2257b4f5711595a5fc0f8a75cf1b481" })
    }))

  it.live("maps a failed system contract and unnamed TVM failures to FAILED", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      let reply: unknown = { id: "aa".repeat(32), blockNumber: 1, result: "FAILED", receipt: { net_usage: 270 } }
      node.on("/walletsolidity/gettransactioninfobyid", () => reply)
      const chain = yield* chainWith()
      expect(Option.map(yield* chain.receipt("aa".repeat(32)), (r) => r.result)).toEqual(Option.some("FAILED"))
      reply = { id: "aa".repeat(32), blockNumber: 1, receipt: { result: "BAD_JUMP_DESTINATION" } }
      expect(Option.map(yield* chain.receipt("aa".repeat(32)), (r) => r.result)).toEqual(Option.some("FAILED"))
      reply = { id: "aa".repeat(32), blockNumber: 1, receipt: { result: "REVERT" } }
      expect(Option.map(yield* chain.receipt("aa".repeat(32)), (r) => r.result)).toEqual(Option.some("REVERT"))
    }))
})
