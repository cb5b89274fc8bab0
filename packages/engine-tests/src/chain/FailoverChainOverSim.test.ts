import { describe, expect, it } from "@effect/vitest"
import { adapterFor, startSimNode, wallet } from "@collector/tron-sim/testing"
import { Duration, Effect, Metric } from "effect"
import { Chain } from "@collector/core"

const options = { coolDown: Duration.minutes(1), maxLagBlocks: 5n, answerTimeout: Duration.seconds(5), crossCheck: false }

/** Nothing listens there: connections are refused at once. */
const downUrl = "http://127.0.0.1:9"

describe("failoverChain over simulated nodes through the production adapter", () => {
  it.scoped("the first node down and the second 10 blocks behind the third: the third serves the head and the blocks", () =>
    Effect.gen(function*() {
      const behind = yield* startSimNode()
      const ahead = yield* startSimNode()
      const start = (yield* (yield* adapterFor(ahead.url)).headBlock).number
      yield* behind.chain.mine(2)
      yield* ahead.chain.mine(12)
      const { chain, nodesHealthy } = yield* Chain.failoverChain("nile", [
        { name: "1:down", chain: yield* adapterFor(downUrl) },
        { name: "2:behind", chain: yield* adapterFor(behind.url) },
        { name: "3:ahead", chain: yield* adapterFor(ahead.url) }
      ], options)
      expect((yield* chain.headBlock).number).toBe(start + 12n)
      expect(yield* nodesHealthy).toEqual({ healthy: 1, total: 3 })
      const block = yield* chain.blockTransfers(start + 12n)
      expect(block.block.number).toBe(start + 12n)
      // A block the node serving does not have yet is its answer, not a reason to fail over.
      const missing = yield* Effect.flip(chain.blockTransfers(start + 100n))
      expect(missing._tag).toBe("BlockNotFound")
      expect(yield* nodesHealthy).toEqual({ healthy: 1, total: 3 })
    }))

  it.scoped("every node down: ChainUnavailable, naming each node", () =>
    Effect.gen(function*() {
      const { chain } = yield* Chain.failoverChain("nile", [
        { name: "1:a", chain: yield* adapterFor(downUrl) },
        { name: "2:b", chain: yield* adapterFor("http://127.0.0.1:7") }
      ], options)
      const failed = yield* Effect.flip(chain.blockTransfers(1n))
      expect(failed._tag).toBe("ChainUnavailable")
      expect("reason" in failed ? failed.reason : "").toMatch(/^1:a: .+; 2:b: .+$/)
    }))

  it.scoped("cross-checking: a block is answered when two nodes agree on it, and held (unavailable, counted) while they do not or only one answers", () =>
    Effect.gen(function*() {
      const node = yield* startSimNode()
      const other = yield* startSimNode()
      // The same chain, then another one whose block 3 carries a USDT mint the first has not.
      yield* node.chain.mine(3)
      yield* other.chain.mintUsdt(wallet(8801).address, 5_000_000n)
      yield* other.chain.mine(3)
      const n = (yield* (yield* adapterFor(node.url)).headBlock).number
      const crossChecked = { ...options, crossCheck: true }
      const agreeing = yield* Chain.failoverChain("nile", [
        { name: "1:a", chain: yield* adapterFor(node.url) },
        { name: "2:a-again", chain: yield* adapterFor(node.url) }
      ], crossChecked)
      expect((yield* agreeing.chain.blockTransfers(n)).block.number).toBe(n)

      const forked = yield* Chain.failoverChain("nile", [
        { name: "1:a", chain: yield* adapterFor(node.url) },
        { name: "2:b", chain: yield* adapterFor(other.url) }
      ], crossChecked)
      const countedBefore = (yield* Metric.value(Chain.nodeDisagreements("nile"))).count
      const disagreement = yield* Effect.flip(forked.chain.blockTransfers(n))
      expect((yield* Metric.value(Chain.nodeDisagreements("nile"))).count).toBe(countedBefore + 1)
      expect(disagreement._tag).toBe("ChainUnavailable")
      expect("reason" in disagreement ? disagreement.reason : "").toMatch(new RegExp(`^nodes 1:a and 2:b disagree on block ${n}: .+; its bookings wait until they agree$`))
      // Without the check, the first node's reading is answered.
      const unchecked = yield* Chain.failoverChain("nile", [
        { name: "1:a", chain: yield* adapterFor(node.url) },
        { name: "2:b", chain: yield* adapterFor(other.url) }
      ], options)
      expect((yield* unchecked.chain.blockTransfers(n)).block.number).toBe(n)

      const alone = yield* Chain.failoverChain("nile", [
        { name: "1:a", chain: yield* adapterFor(node.url) },
        { name: "2:down", chain: yield* adapterFor(downUrl) }
      ], crossChecked)
      const held = yield* Effect.flip(alone.chain.blockTransfers(n))
      expect("reason" in held ? held.reason : "").toMatch(new RegExp(`^block ${n} cannot be cross-checked yet: 2:down: `))
    }))
})
