import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Either, Fiber, Metric, Option, TestClock } from "effect"
import type { ChainService } from "./Chain.js"
import { BlockNotFound, ChainRejected, ChainUnavailable } from "./ChainErrors.js"
import type { BlockRef, Receipt } from "./ChainModel.js"
import { failoverChain, type FailoverChainOptions } from "./FailoverChain.js"
import { nodeFailovers, nodeUp } from "./NodeFailoverMetrics.js"

type Fault = "none" | "down" | "silent"

const block = (number: bigint): BlockRef => ({
  number,
  hash: number.toString(16).padStart(64, "0"),
  parentHash: (number - 1n).toString(16).padStart(64, "0"),
  timestamp: new Date(Number(number) * 3000)
})

const receiptOf = (txid: string, blockNumber: bigint): Receipt => ({
  txid,
  blockNumber,
  blockTime: new Date(Number(blockNumber) * 3000),
  result: "SUCCESS",
  fee: 0n,
  energyFee: 0n,
  energyUsage: 0n
} as Receipt)

/**
 * A TRON node kept in memory: a head, a solidified block 19 below it, the transactions it has
 * taken (each with its receipt once "mined"), and the ways a real node fails. Every call counts.
 * What these tests do not use it refuses, as a node refuses what it cannot serve.
 */
const memoryNode = (head: bigint) => {
  const state = { head, fault: "none" as Fault, calls: 0, receipts: new Map<string, Receipt>(), broadcasts: [] as Array<string> }
  const serve = <A, E>(answer: () => Effect.Effect<A, E>): Effect.Effect<A, E | ChainUnavailable> =>
    Effect.suspend((): Effect.Effect<A, E | ChainUnavailable> => {
      state.calls++
      if (state.fault === "down") return Effect.fail(new ChainUnavailable({ reason: "connect ECONNREFUSED" }))
      if (state.fault === "silent") return Effect.never
      return answer()
    })
  const refuse = () => serve(() => Effect.fail(new ChainRejected({ reason: "not kept by this node" })))
  const chain: ChainService = {
    headBlock: serve(() => Effect.succeed(block(state.head))),
    solidifiedBlock: serve(() => Effect.succeed(block(state.head - 19n))),
    blockTransfers: (number) =>
      serve(() => number > state.head ? Effect.fail(new BlockNotFound({ number })) : Effect.succeed({ block: block(number), transfers: [] })),
    account: refuse,
    balances: refuse,
    usdtBalance: refuse,
    trxBalance: refuse,
    resources: refuse,
    parameters: refuse(),
    isBlackListed: (address) => serve(() => Effect.succeed(address === "TBlack")),
    estimateTransferEnergy: refuse,
    buildUsdtTransfer: refuse,
    broadcast: (transaction) =>
      serve(() => {
        state.broadcasts.push(transaction.txid)
        return Effect.succeed({ _tag: "Accepted" as const })
      }),
    receipt: (txid) => serve(() => Effect.succeed(Option.fromNullable(state.receipts.get(txid)))),
    stakeTotals: refuse,
    energyStake: refuse,
    delegatableEnergyStake: refuse,
    lentEnergyStake: refuse,
    buildEnergyLoan: refuse,
    buildEnergyReclaim: refuse,
    buildStake: refuse,
    buildUnstake: refuse
  }
  return { state, chain }
}

const options: FailoverChainOptions = { coolDown: Duration.seconds(30), maxLagBlocks: 5n, answerTimeout: Duration.seconds(10), crossCheck: false }

const twoNodes = (headA: bigint, headB: bigint, network: "nile" | "main" = "nile") =>
  Effect.gen(function*() {
    const a = memoryNode(headA)
    const b = memoryNode(headB)
    const composite = yield* failoverChain(network, [{ name: "0:a.example", chain: a.chain }, { name: "1:b.example", chain: b.chain }], options)
    return { a, b, ...composite }
  })

const signed = { txid: "aa".repeat(32), rawDataHex: "0a", signatures: ["bb"] } as never

describe("failoverChain", () => {
  it.effect("reads go to the first node while it answers; the second is not asked", () =>
    Effect.gen(function*() {
      const { a, b, chain } = yield* twoNodes(100n, 100n)
      expect(yield* chain.isBlackListed("TBlack")).toBe(true)
      expect((yield* chain.blockTransfers(90n)).block.number).toBe(90n)
      expect([a.state.calls, b.state.calls]).toEqual([2, 0])
    }))

  it.effect("one node down: the call goes to the next, and the down node rests for the cool-down", () =>
    Effect.gen(function*() {
      const { a, b, chain, nodesHealthy } = yield* twoNodes(100n, 100n)
      a.state.fault = "down"
      expect((yield* chain.blockTransfers(90n)).block.number).toBe(90n)
      expect(yield* nodesHealthy).toEqual({ healthy: 1, total: 2 })
      expect(yield* chain.isBlackListed("TOther")).toBe(false)
      // a was asked once (and failed); the second read went to b alone.
      expect([a.state.calls, b.state.calls]).toEqual([1, 2])
    }))

  it.effect("a node that does not answer within the answer timeout counts as down", () =>
    Effect.gen(function*() {
      const { a, b, chain } = yield* twoNodes(100n, 100n)
      a.state.fault = "silent"
      const fiber = yield* Effect.fork(chain.blockTransfers(90n))
      yield* TestClock.adjust(Duration.seconds(10))
      expect((yield* Fiber.join(fiber)).block.number).toBe(90n)
      expect(b.state.calls).toBe(1)
    }))

  it.effect("a node back after the cool-down serves again, first in order", () =>
    Effect.gen(function*() {
      const { a, b, chain, nodesHealthy } = yield* twoNodes(100n, 100n)
      a.state.fault = "down"
      yield* chain.blockTransfers(90n)
      a.state.fault = "none"
      yield* TestClock.adjust(Duration.seconds(29))
      yield* chain.blockTransfers(91n)
      expect([a.state.calls, b.state.calls]).toEqual([1, 2])
      yield* TestClock.adjust(Duration.seconds(1))
      expect(yield* nodesHealthy).toEqual({ healthy: 2, total: 2 })
      yield* chain.blockTransfers(92n)
      expect([a.state.calls, b.state.calls]).toEqual([2, 2])
    }))

  it.effect("all nodes down: the caller gets ChainUnavailable naming each; all resting, they are tried in order anyway", () =>
    Effect.gen(function*() {
      const { a, b, chain, nodesHealthy } = yield* twoNodes(100n, 100n)
      a.state.fault = "down"
      b.state.fault = "down"
      const failed = yield* Effect.flip(chain.blockTransfers(90n))
      expect(failed).toEqual(new ChainUnavailable({ reason: "0:a.example: connect ECONNREFUSED; 1:b.example: connect ECONNREFUSED" }))
      expect(yield* nodesHealthy).toEqual({ healthy: 0, total: 2 })
      b.state.fault = "none"
      expect((yield* chain.blockTransfers(90n)).block.number).toBe(90n)
      expect([a.state.calls, b.state.calls]).toEqual([2, 2])
    }))

  it.effect("a refusal is an answer: BlockNotFound and ChainRejected come back from the first node, the second is not asked", () =>
    Effect.gen(function*() {
      const { a, b, chain, nodesHealthy } = yield* twoNodes(100n, 120n)
      expect(yield* Effect.flip(chain.blockTransfers(110n))).toEqual(new BlockNotFound({ number: 110n }))
      expect(yield* Effect.flip(chain.parameters)).toEqual(new ChainRejected({ reason: "not kept by this node" }))
      expect([a.state.calls, b.state.calls]).toEqual([2, 0])
      expect(yield* nodesHealthy).toEqual({ healthy: 2, total: 2 })
    }))

  it.effect("a node whose head is more than 5 blocks behind the best rests; reads go to the current one", () =>
    Effect.gen(function*() {
      const { a, b, chain, nodesHealthy } = yield* twoNodes(100n, 106n)
      expect((yield* chain.headBlock).number).toBe(106n)
      expect(yield* nodesHealthy).toEqual({ healthy: 1, total: 2 })
      expect((yield* chain.blockTransfers(103n)).block.number).toBe(103n)
      // a answered the head poll only; the block came from b.
      expect([a.state.calls, b.state.calls]).toEqual([1, 2])
    }))

  it.effect("a node 5 blocks behind is within the limit and, being first, serves the head", () =>
    Effect.gen(function*() {
      const { chain, nodesHealthy } = yield* twoNodes(100n, 105n)
      expect((yield* chain.headBlock).number).toBe(100n)
      expect(yield* nodesHealthy).toEqual({ healthy: 2, total: 2 })
    }))

  it.effect("the head never goes back because the first node is behind while another has the higher head", () =>
    Effect.gen(function*() {
      const { a, chain } = yield* twoNodes(106n, 110n)
      a.state.fault = "down"
      expect((yield* chain.headBlock).number).toBe(110n)
      // a comes back after its cool-down 4 blocks behind b: within the lag limit, first in order.
      a.state.fault = "none"
      yield* TestClock.adjust(Duration.seconds(30))
      expect((yield* chain.headBlock).number).toBe(110n)
      // When a catches up past the highest head answered, it serves again.
      a.state.head = 111n
      expect((yield* chain.headBlock).number).toBe(111n)
    }))

  it.effect("the solidified block never goes back because the first node is behind", () =>
    Effect.gen(function*() {
      const { a, chain } = yield* twoNodes(106n, 110n)
      a.state.fault = "down"
      expect((yield* chain.solidifiedBlock).number).toBe(91n)
      a.state.fault = "none"
      yield* TestClock.adjust(Duration.seconds(30))
      expect((yield* chain.solidifiedBlock).number).toBe(91n)
      a.state.head = 112n
      expect((yield* chain.solidifiedBlock).number).toBe(93n)
    }))

  it.effect("broadcast goes to one node; the same signed transaction goes to the next when that one is down", () =>
    Effect.gen(function*() {
      const { a, b, chain } = yield* twoNodes(100n, 100n)
      expect(yield* chain.broadcast(signed)).toEqual({ _tag: "Accepted" })
      expect([a.state.broadcasts, b.state.broadcasts]).toEqual([["aa".repeat(32)], []])
      a.state.fault = "down"
      expect(yield* chain.broadcast(signed)).toEqual({ _tag: "Accepted" })
      expect([a.state.broadcasts, b.state.broadcasts]).toEqual([["aa".repeat(32)], ["aa".repeat(32)]])
    }))

  it.effect("receipt: the first receipt found, asking the second node when the first knows none", () =>
    Effect.gen(function*() {
      const { a, b, chain } = yield* twoNodes(100n, 100n)
      const txid = "cc".repeat(32)
      expect(yield* chain.receipt(txid)).toEqual(Option.none())
      b.state.receipts.set(txid, receiptOf(txid, 99n))
      expect(yield* chain.receipt(txid)).toEqual(Option.some(receiptOf(txid, 99n)))
      expect([a.state.calls, b.state.calls]).toEqual([2, 2])
      // With the second node down, "none" from the first would be a guess: unavailable.
      b.state.fault = "down"
      const unknown = yield* Effect.either(chain.receipt(txid))
      expect(Either.isLeft(unknown) && unknown.left._tag).toBe("ChainUnavailable")
    }))

  it.effect("node_up and failovers per node, labelled by position and host", () =>
    Effect.gen(function*() {
      const { a, chain } = yield* twoNodes(100n, 100n, "main")
      const failoversBefore = (yield* Metric.value(nodeFailovers("main", "0:a.example", "unavailable"))).count
      a.state.fault = "down"
      yield* chain.isBlackListed("T1")
      expect((yield* Metric.value(nodeUp("main", "0:a.example"))).value).toBe(0)
      expect((yield* Metric.value(nodeUp("main", "1:b.example"))).value).toBe(1)
      expect((yield* Metric.value(nodeFailovers("main", "0:a.example", "unavailable"))).count).toBe(failoversBefore + 1)
      a.state.fault = "none"
      yield* TestClock.adjust(Duration.seconds(30))
      yield* chain.isBlackListed("T1")
      expect((yield* Metric.value(nodeUp("main", "0:a.example"))).value).toBe(1)
    }))

  it.effect("one node: its adapter as it is", () =>
    Effect.gen(function*() {
      const a = memoryNode(100n)
      const { chain } = yield* failoverChain("nile", [{ name: "0:a.example", chain: a.chain }], options)
      expect(chain).toBe(a.chain)
    }))
})
