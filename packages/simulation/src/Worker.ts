import { Engine, type Kernel } from "@collector/core"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { gatedPorts } from "./GatedPorts.js"
import { checkpointAfterOrder } from "./OrderCrashPoint.js"
import { PowerGate } from "./PowerGate.js"
import type { SimulatedNetwork } from "./SimulatedNetwork.js"

/** One running generation of a worker: its engines (one per network) and what its crash cuts. */
export interface WorkerLife {
  readonly generation: number
  readonly gate: PowerGate
  readonly scope: Scope.CloseableScope
  readonly engines: ReadonlyMap<Kernel.Network, Engine.Engine["Type"]>
}

/**
 * A worker process of the simulated service: an engine per network on the shared store, built
 * anew after each crash from storage alone (its memory is gone: leases it held run out, its
 * scanner state starts over, its holder name is new).
 */
export class Worker {
  private life: WorkerLife | null = null
  private generations = 0
  private crashRequested = false
  /** Until then (Clock millis) a crashed worker stays down before it is started again. */
  downUntil = 0

  constructor(readonly name: string) {}

  get current(): WorkerLife | null {
    return this.life
  }

  get isUp(): boolean {
    return this.life !== null
  }

  /** Whether a checkpoint crashed it since the last time this was asked. */
  takeCrashRequest(): boolean {
    const requested = this.crashRequested
    this.crashRequested = false
    return requested
  }

  /**
   * Starts the next generation: its engines over the world's ports, behind a new power gate.
   * `crashAt` decides at each checkpoint whether the worker dies there.
   */
  start = (
    networks: ReadonlyArray<SimulatedNetwork>,
    settings: Engine.EngineSettings,
    crashAt: (worker: string, point: string) => Effect.Effect<boolean>
  ) =>
    Effect.gen(this, function*() {
      const generation = ++this.generations
      const gate = new PowerGate()
      const scope = yield* Scope.make()
      const checkpoint: Engine.Checkpoint = (point) =>
        Effect.flatMap(crashAt(this.name, point), (dies) => {
          if (!dies) return Effect.void
          gate.cut()
          this.crashRequested = true
          return Effect.interrupt
        })
      const engines = new Map<Kernel.Network, Engine.Engine["Type"]>()
      for (const network of networks) {
        const layer = Engine.Engine.layer(network.network, { ...settings, processName: `${this.name}${generation}`, checkpoint }).pipe(
          Layer.provide(checkpointAfterOrder(checkpoint)),
          Layer.provide(gatedPorts(gate)),
          Layer.provide(network.adapters)
        )
        const context = yield* Layer.buildWithScope(layer, scope)
        engines.set(network.network, Context.get(context, Engine.Engine))
      }
      this.life = { generation, gate, scope, engines }
      return this.life
    })

  /** A power cut: nothing it does reaches the world from now on; its fibers are ended by the caller. */
  crash = (downUntil: number) =>
    Effect.suspend(() => {
      const life = this.life
      if (life === null) return Effect.void
      life.gate.cut()
      this.life = null
      this.downUntil = downUntil
      return Scope.close(life.scope, Exit.void)
    })
}
