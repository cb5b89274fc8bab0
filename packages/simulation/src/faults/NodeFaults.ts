import { Effect } from "effect"
import type { Dice } from "../Dice.js"
import type { SimulatedNetwork } from "../SimulatedNetwork.js"
import type { Trace } from "../Trace.js"
import { faultRates } from "./FaultRates.js"

/** The node adapter's per-request timeout in a run: slow replies stay under it, timeouts go past it. */
const adapterTimeoutMillis = 5_000

/**
 * The node of one network misbehaving: outages that answer 503 or hold every request past the
 * adapter's timeout, slow spells that hold requests for less than it, and replies lost after the
 * node carried the call out (any call, or a broadcast, whose caller cannot tell it happened).
 */
export class NodeFaults {
  constructor(private readonly network: SimulatedNetwork, private readonly dice: Dice, private readonly trace: Trace) {}

  readonly step = Effect.gen(this, function*() {
    const { network, sim } = this.network
    if (this.dice.chance(faultRates.nodeOutage)) {
      const mode = this.dice.pick(["error", "timeout"] as const)
      const millis = this.dice.int(2, 45) * 1_000
      yield* Effect.orDie(sim.chain.fail(mode, millis))
      this.trace.record(`fault ${network} node outage ${mode} ${millis}`)
    }
    if (this.dice.chance(faultRates.nodeSlow)) {
      const millis = this.dice.int(200, adapterTimeoutMillis - 500)
      yield* Effect.orDie(sim.chain.fail("timeout", millis))
      this.trace.record(`fault ${network} node slow ${millis}`)
    }
    if (this.dice.chance(faultRates.nodeLostReplies)) {
      const count = this.dice.int(1, 3)
      const path = this.dice.pick(["/wallet", "/wallet/broadcast"])
      yield* Effect.orDie(sim.chain.loseNextReplies(count, path))
      this.trace.record(`fault ${network} node lost replies ${count} ${path}`)
    }
  })
}
