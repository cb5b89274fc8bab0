import { Effect } from "effect"
import type { Dice } from "../Dice.js"
import type { SimulatedNetwork } from "../SimulatedNetwork.js"
import type { Trace } from "../Trace.js"
import { faultRates } from "./FaultRates.js"

/**
 * Broadcasts of one network going wrong on the node: lost after a successful answer, kept out of
 * blocks for a few blocks, or kept out until the transaction has expired (twice its lifetime in
 * blocks at least, since blocks come slower than the interval in a run). Each is armed for the
 * next broadcast, whenever the service makes it.
 */
export class BroadcastFaults {
  constructor(private readonly network: SimulatedNetwork, private readonly dice: Dice, private readonly trace: Trace) {}

  readonly step = Effect.gen(this, function*() {
    const { network, sim } = this.network
    const { blockIntervalMs, expirationMs } = sim.chain.config
    if (this.dice.chance(faultRates.broadcastLost)) {
      yield* sim.chain.dropNextBroadcast(1)
      this.trace.record(`fault ${network} broadcast lost`)
    }
    if (this.dice.chance(faultRates.broadcastDelayed)) {
      const blocks = this.dice.int(1, 8)
      yield* Effect.orDie(sim.chain.delayNextBroadcast(blocks))
      this.trace.record(`fault ${network} broadcast delayed ${blocks}`)
    } else if (this.dice.chance(faultRates.broadcastExpired)) {
      const blocks = 2 * Math.ceil(expirationMs / blockIntervalMs) + this.dice.int(0, 10)
      yield* Effect.orDie(sim.chain.delayNextBroadcast(blocks))
      this.trace.record(`fault ${network} broadcast expires ${blocks}`)
    }
  })
}
