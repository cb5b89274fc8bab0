import { Effect } from "effect"
import type { Dice } from "../Dice.js"
import type { SimulatedNetwork } from "../SimulatedNetwork.js"
import type { Trace } from "../Trace.js"
import { faultRates } from "./FaultRates.js"

type ProviderOfNetwork = SimulatedNetwork["providers"][number]
type ProviderFault = Parameters<ProviderOfNetwork["book"]["arm"]>[0]

/**
 * One energy provider of one network failing its next orders: delivering late or only part of
 * the energy, accepting then failing, refusing, or carrying an order out and losing the answer;
 * and, on the line to it (`ProviderLine`), order calls lost before they reach it (no order
 * placed) and its order look-up unavailable for the next few calls.
 */
export class ProviderFaults {
  /** `provider` is one of `network`'s providers (each gets its own faults, from its own dice). */
  constructor(private readonly network: SimulatedNetwork, private readonly provider: ProviderOfNetwork, private readonly dice: Dice, private readonly trace: Trace) {}

  /** How the trace names the provider: the network alone for the first (as before there were two), then its name. */
  private get label(): string {
    return this.provider.name === "sim" ? this.network.network : `${this.network.network} ${this.provider.name}`
  }

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
    const line = this.provider.line
    switch (this.dice.int(1, 7)) {
      case 6: {
        const count = this.dice.int(1, 2)
        const mode = this.dice.pick(["504", "close"] as const)
        line.loseNextOrders(count, mode)
        // The caller cannot tell this from a lost answer and looks the order up. A closed
        // connection takes the look-up down with it (a gateway's 504 leaves it working), so both
        // an answer "no such order" and no answer at all follow a lost order.
        if (mode === "504") return `order lost before placed ${count} ${mode}`
        const finds = this.dice.int(1, 3)
        line.breakNextFinds(finds)
        return `order lost before placed ${count} ${mode}, look-up down ${finds}`
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
    if (onLine !== undefined) return this.trace.record(`fault ${this.label} provider line ${onLine}`)
    const fault = this.fault()
    const count = this.dice.int(1, 2)
    yield* Effect.orDie(this.provider.book.arm(fault, count))
    this.trace.record(`fault ${this.label} provider ${fault.kind} ${count} ${JSON.stringify(fault)}`)
    // A lost answer is when the order is looked up: half the time the look-up is down then too,
    // so the task's order number must be kept and sent again, not replaced. Drawn apart, the two
    // rarely met once most sweeps on main lend the own stake instead of renting.
    if (fault.kind === "unknown" && this.dice.chance(0.5)) {
      const finds = this.dice.int(1, 3)
      this.provider.line.breakNextFinds(finds)
      this.trace.record(`fault ${this.label} provider line look-up down ${finds} with the lost answer`)
    }
  })
}
