import type { Engine, EngineSettings } from "@collector/core"
import { Cause, Clock, Duration, Effect, Exit, Fiber } from "effect"
import type { Dice } from "./Dice"
import type { Trace } from "./Trace"
import type { VirtualTime } from "./VirtualTime"
import type { Worker } from "./Worker"
import type { WorldParts } from "./World"

export type PassName = "scan" | "balances" | "sweep" | "automate" | "notify"

export const passNames: ReadonlyArray<PassName> = ["scan", "balances", "sweep", "automate", "notify"]

const passOf = (engine: Engine["Type"], name: PassName): Effect.Effect<unknown, unknown> =>
  name === "scan"
    ? engine.scanOnce
    : name === "balances"
    ? engine.syncBalancesOnce
    : name === "sweep"
    ? engine.sweepOnce
    : name === "automate"
    ? engine.automateOnce
    : engine.notifyOnce

/** How long the clock may run while passes wait on it (a held node reply, a slow receiver) before the round gives up on them. */
const roundLimit = Duration.minutes(2)
const roundStep = Duration.millis(250)

/**
 * The run's scheduler: it decides, from its dice, which worker runs which pass of which
 * network's engine and when, runs the chosen passes concurrently (two workers contend for the
 * same work), moves the clock while they wait on it, and takes crashed workers down and up
 * again. A pass that fails as the chain or the store may (a node outage, a lost race) is normal;
 * one that dies is a defect, reported as a violation.
 */
export class Scheduler {
  passesRun = 0

  constructor(
    private readonly world: WorldParts,
    private readonly time: VirtualTime,
    private readonly dice: Dice,
    private readonly trace: Trace,
    private readonly settings: EngineSettings,
    private readonly crashAt: (worker: string, point: string) => Effect.Effect<boolean>,
    private readonly defect: (message: string) => void
  ) {}

  /** Starts every worker that is down and whose restart delay has passed. */
  startDue = Effect.gen(this, function*() {
    const now = yield* Clock.currentTimeMillis
    for (const worker of this.world.workers) {
      if (worker.isUp || worker.downUntil > now) continue
      const life = yield* worker.start(this.world.networks, this.settings, this.crashAt)
      this.trace.record(`start ${worker.name}${life.generation}`)
    }
  })

  /**
   * The chance that a worker runs a pass in a round: scanning is mostly left to one worker at a
   * time (as the network's lease does in production; the second one contends now and then) and
   * balance sync runs at half the rate of the others, whose work is shared by claims.
   */
  private chanceOf(name: PassName, p: number, scanner: boolean): number {
    return name === "scan" ? (scanner ? p : p / 10) : name === "balances" ? p / 2 : p
  }

  /** One round: each live worker's engines each run each pass with its chance, all at once. */
  round = (p: number) =>
    Effect.gen(this, function*() {
      yield* this.startDue
      const running: Array<{ readonly worker: Worker; readonly label: string; readonly fiber: Fiber.RuntimeFiber<unknown, unknown> }> = []
      const live = this.world.workers.filter((w) => w.isUp)
      const scanner = live.length === 0 ? undefined : this.dice.pick(live)
      for (const worker of live) {
        const life = worker.current!
        for (const [network, engine] of life.engines) {
          for (const name of passNames) {
            if (!this.dice.chance(this.chanceOf(name, p, worker === scanner))) continue
            const label = `${worker.name}${life.generation}:${network}:${name}`
            this.trace.record(`pass ${label}`)
            running.push({ worker, label, fiber: yield* Effect.fork(passOf(engine, name)) })
          }
        }
      }
      this.passesRun += running.length
      yield* this.time.settle
      const deadline = this.time.millis + Duration.toMillis(roundLimit)
      while (running.some(({ fiber }) => fiber.unsafePoll() === null) && this.time.millis < deadline) {
        yield* this.time.advance(roundStep)
      }
      for (const { fiber, label } of running) {
        const exit = fiber.unsafePoll()
        if (exit === null) {
          // Still waiting when the round ended: as a request that never comes back.
          yield* Fiber.interrupt(fiber)
          this.trace.record(`abandoned ${label}`)
        } else if (Exit.isFailure(exit) && !Cause.isInterruptedOnly(exit.cause) && Cause.isDie(exit.cause)) {
          this.defect(`${label} died: ${Cause.pretty(exit.cause).split("\n")[0]}`)
        }
      }
      yield* this.takeDownCrashed
    })

  /** Workers that died at a checkpoint (or were cut) go down until their restart. */
  private takeDownCrashed = Effect.gen(this, function*() {
    const now = yield* Clock.currentTimeMillis
    for (const worker of this.world.workers) {
      if (!worker.takeCrashRequest()) continue
      const downFor = this.dice.int(5, 60) * 1000
      this.trace.record(`crash ${worker.name} down ${downFor}`)
      yield* worker.crash(now + downFor)
    }
  })

  /** A power cut of `worker` now, wherever its passes are (between rounds: none is running). */
  crash = (worker: Worker) =>
    Effect.gen(this, function*() {
      if (!worker.isUp) return
      const now = yield* Clock.currentTimeMillis
      const downFor = this.dice.int(5, 60) * 1000
      this.trace.record(`crash ${worker.name} down ${downFor}`)
      yield* worker.crash(now + downFor)
    })
}
