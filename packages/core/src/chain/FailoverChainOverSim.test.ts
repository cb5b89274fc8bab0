import { describe, expect, it } from "@effect/vitest"
import { adapterFor, startSimNode } from "@collector/tron-sim/testing"
import { Duration, Effect } from "effect"
import { failoverChain } from "./FailoverChain.js"

const options = { coolDown: Duration.minutes(1), maxLagBlocks: 5n, answerTimeout: Duration.seconds(5) }

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
      const { chain, nodesHealthy } = yield* failoverChain("nile", [
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
      const { chain } = yield* failoverChain("nile", [
        { name: "1:a", chain: yield* adapterFor(downUrl) },
        { name: "2:b", chain: yield* adapterFor("http://127.0.0.1:7") }
      ], options)
      const failed = yield* Effect.flip(chain.blockTransfers(1n))
      expect(failed._tag).toBe("ChainUnavailable")
      expect("reason" in failed ? failed.reason : "").toMatch(/^1:a: .+; 2:b: .+$/)
    }))
})
