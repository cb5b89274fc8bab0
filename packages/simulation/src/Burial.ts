import { Duration, Effect } from "effect"
import type { VirtualTime } from "./VirtualTime.js"
import type { WorldParts } from "./WorldParts.js"

/** The simulators' block interval, as the clock moves while blocks are made one by one. */
export const blockInterval = Duration.seconds(3)

/** `blocks` blocks on every network, one interval apart, with nothing of the service running meanwhile. */
export const bury = (world: WorldParts, time: VirtualTime, blocks: number) =>
  Effect.gen(function*() {
    for (let i = 0; i < blocks; i++) {
      for (const { sim } of world.networks) yield* sim.chain.mine(1)
      yield* time.advance(blockInterval)
    }
  })
