import { Chain } from "@collector/core"
import { Effect } from "effect"
import type { Dice } from "../Dice.js"
import type { NodeFault, SimulatedNode } from "../SimulatedNode.js"
import type { SimulatedNetwork } from "../SimulatedNetwork.js"
import type { Trace } from "../Trace.js"
import { faultRates } from "./FaultRates.js"

/**
 * The faults of single nodes in a network's node set (`SimulatedNode`), which the failover must
 * see through: one node lagging more blocks behind the head than the failover's lag limit, one
 * serving another fork above the solidified block, one down (refusing connections or holding
 * requests past the adapter's timeout). Each holds a node that has no fault for a drawn number of
 * ticks; the node's fault ends by itself then (and at the heal).
 */
export class NodeSetFaults {
  private readonly ticksLeft = new Map<SimulatedNode, number>()

  constructor(private readonly network: SimulatedNetwork, private readonly dice: Dice, private readonly trace: Trace) {}

  private hold(kind: NodeFault["_tag"], fault: () => Effect.Effect<NodeFault>) {
    return Effect.gen(this, function*() {
      const free = this.network.nodes.filter((node) => node.fault === undefined)
      if (free.length === 0) return
      const node = this.dice.pick(free)
      const ticks = this.dice.int(faultRates.nodeFaultTicks[0], faultRates.nodeFaultTicks[1])
      const drawn = yield* fault()
      node.fault = drawn
      this.ticksLeft.set(node, ticks)
      const detail = drawn._tag === "lagging" ? `${drawn.blocks} blocks` : drawn._tag === "forked" ? `above ${drawn.from}` : drawn.mode
      this.trace.record(`fault ${this.network.network} node ${node.name} ${kind} ${detail} for ${ticks} ticks`)
    })
  }

  readonly step = Effect.gen(this, function*() {
    for (const [node, ticks] of this.ticksLeft) {
      if (ticks > 1) this.ticksLeft.set(node, ticks - 1)
      else {
        this.ticksLeft.delete(node)
        node.fault = undefined
      }
    }
    const maxLag = Number(Chain.defaultNodeHealthOptions.maxLagBlocks)
    if (this.dice.chance(faultRates.nodeLagging)) {
      // Half of them a little past the limit, half far behind (a node resyncing): past a sweep's
      // expiry and its margin, so its receipts miss transactions the others have solidified.
      yield* this.hold("lagging", () =>
        Effect.succeed({ _tag: "lagging", blocks: BigInt(this.dice.chance(0.5) ? this.dice.int(maxLag + 1, maxLag + 15) : this.dice.int(41, 80)) }))
    }
    if (this.dice.chance(faultRates.nodeForked)) {
      const state = yield* this.network.sim.chain.state
      const head = state.blocks[state.blocks.length - 1]!.number
      yield* this.hold("forked", () => Effect.succeed({ _tag: "forked", from: head - BigInt(this.dice.int(0, 4)), salt: `fork-${this.dice.int(1, 1_000_000_000)}` }))
    }
    if (this.dice.chance(faultRates.nodeDown)) {
      yield* this.hold("down", () => Effect.succeed({ _tag: "down", mode: this.dice.pick(["refuse", "timeout"] as const) }))
    }
  })

  /** Every node of the set serves again. */
  heal(): void {
    for (const node of this.network.nodes) node.fault = undefined
    this.ticksLeft.clear()
  }
}
