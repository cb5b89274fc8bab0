import { Effect } from "effect"
import type { Dice } from "./Dice"
import type { ReceiverAnswer } from "./Receiver"
import type { Trace } from "./Trace"
import type { WorldParts } from "./World"

/**
 * The faults of a run, drawn from its dice: what the world does wrong while the workload runs
 * (the receivers' failures, the workers' crashes at checkpoints), all healed when the service is
 * left to settle.
 */
export class Faults {
  private healed = false

  constructor(private readonly world: WorldParts, private readonly dice: Dice, private readonly trace: Trace) {}

  /** How a receiver answers one request. */
  readonly receiverAnswer = (_request: { readonly appId: string; readonly eventId: string }): Effect.Effect<ReceiverAnswer> =>
    Effect.sync(() => (this.healed || this.dice.chance(0.8) ? "ack" : "serverError"))

  /** Whether the worker dies at this checkpoint. */
  readonly crashAt = (worker: string, point: string): Effect.Effect<boolean> =>
    Effect.sync(() => {
      const dies = !this.healed && this.dice.chance(0.01)
      if (dies) this.trace.record(`checkpoint crash ${worker} at ${point}`)
      return dies
    })

  /** One step of the world's faults, between two rounds of the workload. */
  readonly step: Effect.Effect<void> = Effect.void

  /** Every fault ends: the settling runs on a healthy world. */
  readonly heal: Effect.Effect<void> = Effect.sync(() => {
    this.healed = true
    this.trace.record("healed")
  })

  get networks() {
    return this.world.networks
  }
}
