import { Effect } from "effect"
import type { Dice } from "../Dice.js"
import type { SimulatedNetwork } from "../SimulatedNetwork.js"
import type { Trace } from "../Trace.js"
import { faultRates } from "./FaultRates.js"

type ProviderFault = Parameters<SimulatedNetwork["sim"]["provider"]["arm"]>[0]

/**
 * The energy provider of one network failing its next orders: delivering late or only part of
 * the energy, accepting then failing, refusing, or carrying an order out and losing the answer;
 * and, on the line to it (`ProviderLine`), order calls lost before they reach it (no order
 * placed) and its order look-up unavailable for the next few calls.
 */
export class ProviderFaults {
  constructor(private readonly network: SimulatedNetwork, private readonly dice: Dice, private readonly trace: Trace) {}

  private fault(): ProviderFault {
    switch (this.dice.int(1, 5)) {
      case 1:
        return { kind: "slow", blocks: this.dice.int(2, 12) }
      case 2:
        return { kind: "under-deliver", percent: this.dice.int(10, 90) }
      case 3:
        return { kind: "fail", reason: "simulated: could not delegate" }
      case 4:
        return { kind: "reject", reason: "simulated: no energy available" }
      default: {
        const mode = this.dice.pick(["504", "close", "hold"] as const)
        return { kind: "unknown", lost: { mode, holdMs: this.dice.int(1, 20) * 1_000 } }
      }
    }
  }

  /** A fault of the line to the provider, or undefined when the provider's own fault is drawn. */
  private lineFault(): string | undefined {
    const line = this.network.providerLine
    switch (this.dice.int(1, 7)) {
      case 6: {
        const count = this.dice.int(1, 2)
        const mode = this.dice.pick(["504", "close"] as const)
        line.loseNextOrders(count, mode)
        return `order lost before placed ${count} ${mode}`
      }
      case 7: {
        const count = this.dice.int(1, 4)
        line.breakNextFinds(count)
        return `look-up down ${count}`
      }
      default:
        return undefined
    }
  }

  readonly step = Effect.gen(this, function*() {
    if (!this.dice.chance(faultRates.provider)) return
    const onLine = this.lineFault()
    if (onLine !== undefined) return this.trace.record(`fault ${this.network.network} provider line ${onLine}`)
    const fault = this.fault()
    const count = this.dice.int(1, 2)
    yield* Effect.orDie(this.network.sim.provider.arm(fault, count))
    this.trace.record(`fault ${this.network.network} provider ${fault.kind} ${count} ${JSON.stringify(fault)}`)
  })
}
