import { Chain } from "@collector/core"
import { FetchHttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { fixture, fixtureText, fullNodeUrl, makeFakeNode, renumberedHeader, solidityUrl } from "./testing/FakeNode.js"
import { chainWith, useFakeNodeServer } from "./testing/TestChain.js"
import * as TronNodeChain from "./TronNodeChain.js"

const server = useFakeNodeServer()

const mainnetBlock = fixture("mainnet_getblockbynum_71723395_abridged.json")

const headerOf = renumberedHeader

describe("TronNodeChain blocks", () => {
  // What the adapter reads from these replies is the contract suite's (ChainContract.fixtures.test.ts);
  // these cases are about what it sends and to which host.
  it.live("asks for headers with detail=false: the head from the full node, the solidified block from the solidity node", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/getblock", fixtureText("nile_getnowblock_66987627.header.json"))
      node.on("/walletsolidity/getblock", fixtureText("nile_getblockbynum_66987565.header.json"))
      const chain = yield* chainWith("nile")
      yield* chain.headBlock
      yield* chain.solidifiedBlock
      expect(node.seen.map((r) => [r.url, r.body])).toEqual([
        [`${fullNodeUrl}/wallet/getblock`, { detail: false }],
        [`${solidityUrl}/walletsolidity/getblock`, { detail: false }]
      ])
    }))

  it.live("a node with no block yet (an empty reply) is unavailable, so a node list moves on to the next node", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/getblock", {})
      node.on("/walletsolidity/getblock", {})
      const chain = yield* chainWith("nile")
      for (const read of [chain.headBlock, chain.solidifiedBlock]) {
        const failure = yield* Effect.flip(read)
        expect(failure).toBeInstanceOf(Chain.ChainUnavailable)
        expect((failure as Chain.ChainUnavailable).reason).toMatch(/the node has no block yet/)
      }
    }))

  it.live("takes a block's USDT transfers from exactly two calls: header, then receipts", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/getblock", headerOf(84940364n))
      node.on("/wallet/gettransactioninfobyblocknum", fixtureText("mainnet_gettransactioninfobyblocknum_84940364_partial.json"))
      const { transfers } = yield* (yield* chainWith("main")).blockTransfers(84940364n)
      expect(node.paths()).toEqual(["/wallet/getblock", "/wallet/gettransactioninfobyblocknum"])
      expect(node.seen.map((r) => r.body)).toEqual([{ id_or_num: "84940364", detail: false }, { num: 84940364 }])
      expect(transfers).toHaveLength(4)
    }))

  it.live("accepts a node that ignores detail=false and sends the block's transactions", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/getblock", fixtureText("mainnet_getblockbynum_71723395_abridged.json"))
      const usdtTx = mainnetBlock.transactions[1]
      node.on("/wallet/gettransactioninfobyblocknum", [
        { id: mainnetBlock.transactions[0].txID, blockNumber: 71723395, receipt: { net_usage: 268 } },
        {
          id: usdtTx.txID,
          fee: 345000,
          blockNumber: 71723395,
          contract_address: "41a614f803b6fd780986a42c78ec9c7f77e6ded13c",
          receipt: { energy_usage_total: 64285, net_fee: 345000, result: "SUCCESS" },
          log: [{
            address: "a614f803b6fd780986a42c78ec9c7f77e6ded13c",
            topics: [
              "ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
              "0000000000000000000000005a274493e64a26e6bbf38e86d42192045f4e6881",
              "0000000000000000000000003b9f381f7e5017f3966277d00a0ca5adfc563492"
            ],
            data: usdtTx.raw_data.contract[0].parameter.value.data.slice(72)
          }]
        }
      ])
      const { block, transfers } = yield* (yield* chainWith("main")).blockTransfers(71723395n)
      expect(block).toEqual({
        number: 71723395n,
        hash: "0000000004466983e78b77fc3879e7ddbe1de5215ac7d55cd1ccbb6f59893230",
        parentHash: "00000000044669824a0d4c8beabb227b089144f7104fbd226b1fee63727dd279",
        timestamp: new Date(1745825274000)
      })
      expect(transfers).toHaveLength(1)
      expect(transfers[0]!.amount).toBe(10_000_000n)
      expect(transfers[0]!.txid).toBe(usdtTx.txID)
    }))

  it.live("is unavailable, not empty, when the node has a block with transactions but no receipts for it", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/getblock", fixtureText("mainnet_getblockbynum_71723395_abridged.json"))
      node.on("/wallet/gettransactioninfobyblocknum", [])
      const error = yield* (yield* chainWith()).blockTransfers(71723395n).pipe(Effect.flip)
      expect(error).toBeInstanceOf(Chain.ChainUnavailable)
      expect((error as Chain.ChainUnavailable).reason).toContain("no receipts yet for block 71723395")
    }))

  it.live("returns an empty block (all-zero Merkle root) with no transfers", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/getblock", headerOf(100n, "0".repeat(64)))
      node.on("/wallet/gettransactioninfobyblocknum", [])
      const { transfers } = yield* (yield* chainWith()).blockTransfers(100n)
      expect(transfers).toEqual([])
    }))

  it.live("says BlockNotFound for {} and rejects a block of another number or a receipt of another block", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/getblock", (body: { id_or_num: string }) => (body.id_or_num === "999" ? {} : headerOf(5n)))
      node.on("/wallet/gettransactioninfobyblocknum", [{ id: "ab".repeat(32), blockNumber: 7 }])
      const chain = yield* chainWith()
      expect(yield* chain.blockTransfers(999n).pipe(Effect.flip)).toEqual(new Chain.BlockNotFound({ number: 999n }))
      expect(yield* chain.blockTransfers(6n).pipe(Effect.flip)).toEqual(
        new Chain.ChainRejected({ reason: "/wallet/getblock: asked for block 6, got 5" })
      )
      const stray = yield* chain.blockTransfers(5n).pipe(Effect.flip)
      expect((stray as Chain.ChainRejected).reason).toContain(`block 5 lists ${"ab".repeat(32)} of block 7`)
    }))

  it.live("reads the receipts reply losslessly where it matters: amounts beyond 2^53 exact, whatever the fee fields print", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/getblock", headerOf(5n))
      const from = "000000000000000000000000e5079969b8e71d3c8604a106819aef82cea0c55a"
      const to = "000000000000000000000000118f7b4382bea375ee420f1b211a4619f3ba78ad"
      // Raw text: a fee of 2^53 + 1 as a bare number, which JSON.parse would round, and a 2^70 amount.
      node.on("/wallet/gettransactioninfobyblocknum", `[{"id":"${"c".repeat(64)}","fee":9007199254740993,"blockNumber":5,` +
        `"receipt":{"result":"SUCCESS","energy_fee":9007199254740993},"log":[{"address":"a614f803b6fd780986a42c78ec9c7f77e6ded13c",` +
        `"topics":["ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef","${from}","${to}"],"data":"${(2n ** 70n).toString(16).padStart(64, "0")}"}]}]`)
      const { transfers } = yield* (yield* chainWith("main")).blockTransfers(5n)
      expect(transfers.map((t) => [t.from, t.to, t.amount])).toEqual([["TWrCqzeJMWvfEGyGVrRPTTERkWQLSgmMoY", "TBa4Nb96tj4jUx85tcqvyWYyFi7mowHVLJ", 2n ** 70n]])
    }))

  it.live("rejects a receipts reply that is an error sent with HTTP 200, or not JSON", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/getblock", headerOf(5n))
      const replies: ReadonlyArray<unknown> = [{ Error: "class java.lang.NullPointerException : null" }, "<html>busy</html>"]
      let i = 0
      node.on("/wallet/gettransactioninfobyblocknum", () => replies[i++])
      const chain = yield* chainWith("main")
      expect(yield* chain.blockTransfers(5n).pipe(Effect.flip)).toEqual(
        new Chain.ChainRejected({ reason: "/wallet/gettransactioninfobyblocknum: NullPointerException: null" })
      )
      expect(yield* chain.blockTransfers(5n).pipe(Effect.flip)).toEqual(
        new Chain.ChainRejected({ reason: "/wallet/gettransactioninfobyblocknum returned a body that is not JSON: <html>busy</html>" })
      )
    }))

  it.live("rejects a reply of an unexpected shape, naming the endpoint", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/getblock", { blockID: 5 })
      const error = yield* (yield* chainWith()).headBlock.pipe(Effect.flip)
      expect(error._tag).toBe("ChainRejected")
      expect(error.reason).toMatch(/^\/wallet\/getblock returned an unexpected reply/)
    }))

  it.live("is provided as the Chain service from its settings by layerConfig", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/getblock", fixtureText("nile_getnowblock_66987627.header.json"))
      // The recorded node answers at a plain-HTTP name (msw), which only the insecure setting admits.
      const env = new Map([["TRON_NILE_NODE_URL", fullNodeUrl], ["TRON_NILE_API_KEY", "nile-key"], ["TRON_ALLOW_INSECURE_NODE", "true"]])
      const live = TronNodeChain.layerConfig("nile").pipe(
        Layer.provide(FetchHttpClient.layer),
        Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(env)))
      )
      const head = yield* Effect.flatMap(Chain.Chain, (chain) => chain.headBlock).pipe(Effect.provide(live))
      expect(head.number).toBe(66987627n)
      expect(node.seen[0]!.headers.get("TRON-PRO-API-KEY")).toBe("nile-key")
    }))
})
