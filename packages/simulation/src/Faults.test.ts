import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { Dice } from "./Dice.js"
import { Faults, midRoundCut } from "./Faults.js"
import { Receiver } from "./Receiver.js"
import { memoryStorage } from "./RunStorage.js"
import { afterOrderCall } from "./OrderCrashPoint.js"
import * as SimulatedNetwork from "./SimulatedNetwork.js"
import { Trace } from "./Trace.js"
import { Worker } from "./Worker.js"
import * as World from "./World.js"
import { PathCounts } from "./workload/PathCounts.js"

describe("Faults", () => {
  it.effect("heal ends every fault: the node and every node of the set answer, nothing armed on it or the provider is left, nobody loses power", () =>
    Effect.gen(function*() {
      const paths = new PathCounts()
      const services = World.services("heal", memoryStorage(new Trace(), undefined).layer, new Receiver(() => Effect.succeed("ack")))
      const network = yield* SimulatedNetwork.make("nile", "heal", paths).pipe(Effect.provide(services))
      const faults = new Faults({ networks: [network], workers: [new Worker("A")], paths }, new Dice("heal"), new Trace())
      const { chain, provider } = network.sim
      yield* chain.fail("timeout", 60_000)
      yield* chain.loseNextReplies(3)
      yield* chain.dropNextBroadcast(2)
      yield* chain.delayNextBroadcast(50)
      yield* provider.arm({ kind: "reject", reason: "no" }, 3)
      for (const { book, line } of network.providers) {
        yield* book.arm({ kind: "reject", reason: "no" }, 3)
        line.loseNextOrders(2, "close")
        line.breakNextFinds(3)
      }
      network.nodes[0]!.fault = { _tag: "down", mode: "refuse" }
      network.nodes[1]!.fault = { _tag: "lagging", blocks: 9n }
      network.nodes[2]!.fault = { _tag: "forked", from: 1n, salt: "s" }
      yield* faults.heal
      expect(network.nodes.map((n) => n.fault)).toEqual([undefined, undefined, undefined])
      for (const { line } of network.providers) expect(line.armed).toEqual({ ordersLost: 0, findsDown: 0 })
      expect(Option.isNone(yield* chain.outage)).toBe(true)
      expect(yield* chain.takeLostReply("/wallet/getnowblock")).toBe(false)
      const state = yield* chain.state
      expect(state.faults).toMatchObject({ dropBroadcasts: 0, delayNextBroadcast: 0, lostReplies: [] })
      expect(Object.values(yield* provider.faults).every(Option.isNone)).toBe(true)
      const dies = yield* Effect.forEach(Array.from({ length: 500 }, (_, i) => i), (i) => faults.crashAt("A", [midRoundCut, "checkpoint", afterOrderCall][i % 3]!))
      expect(dies.some((d) => d)).toBe(false)
    }))
})
