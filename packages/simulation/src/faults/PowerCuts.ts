import { Clock, Effect } from "effect"
import type { Dice } from "../Dice.js"
import type { Trace } from "../Trace.js"
import { afterOrderCall } from "../OrderCrashPoint.js"
import type { WorldParts } from "../WorldParts.js"
import { faultRates } from "./FaultRates.js"

/** The point the scheduler names when it asks whether a worker's power is cut while its passes run. */
export const midRoundCut = "mid-round"

/**
 * Workers losing power: at one of the engine's checkpoints, right after an order call answered
 * (`afterOrderCall`, more often than elsewhere: order calls are few), between two rounds, or at
 * a random moment while the passes of a round run (the scheduler asks at `midRoundCut` and picks
 * the moment). A cut worker stays down for a while, then starts again from storage.
 */
export class PowerCuts {
  private healed = false

  // A stream each, so the number of checkpoints reached never shifts when the other cuts come.
  private readonly checkpoints: Dice
  private readonly midRound: Dice
  private readonly betweenRounds: Dice
  private readonly afterOrder: Dice

  constructor(private readonly world: Pick<WorldParts, "workers" | "paths">, dice: Dice, private readonly trace: Trace) {
    this.afterOrder = dice.stream("after-order")
    this.checkpoints = dice.stream("checkpoints")
    this.midRound = dice.stream("mid-round")
    this.betweenRounds = dice.stream("between-rounds")
  }

  /** Whether `worker` dies at `point` (a checkpoint, or `midRoundCut`). */
  readonly diesAt = (worker: string, point: string): Effect.Effect<boolean> =>
    Effect.sync(() => {
      if (this.healed) return false
      if (point === midRoundCut) return this.midRound.chance(faultRates.midRoundCut)
      if (point === afterOrderCall) {
        const cut = this.afterOrder.chance(faultRates.afterOrderCrash)
        if (cut) {
          this.trace.record(`crash ${worker} after an order call`)
          this.world.paths.count("crash.after-order")
        }
        return cut
      }
      const dies = this.checkpoints.chance(faultRates.checkpointCrash)
      if (dies) this.trace.record(`checkpoint crash ${worker} at ${point}`)
      return dies
    })

  /** Between two rounds: no pass is running, the worker just goes dark. */
  readonly step = Effect.gen(this, function*() {
    const live = this.world.workers.filter((w) => w.isUp)
    if (live.length === 0 || !this.betweenRounds.chance(faultRates.powerCut)) return
    const worker = this.betweenRounds.pick(live)
    const downFor = this.betweenRounds.int(5, 60) * 1_000
    this.trace.record(`fault power cut ${worker.name} down ${downFor}`)
    yield* worker.crash((yield* Clock.currentTimeMillis) + downFor)
  })

  readonly heal = Effect.sync(() => {
    this.healed = true
  })
}
