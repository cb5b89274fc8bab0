import type { Engine } from "@collector/core"
import { isDatabaseUnavailable } from "@collector/http-server"
import { Cause, Clock, Duration, Effect, Exit, Fiber } from "effect"
import type { Dice } from "./Dice.js"
import { midRoundCut } from "./faults/PowerCuts.js"
import type { Trace } from "./Trace.js"
import type { VirtualTime } from "./VirtualTime.js"
import type { Worker } from "./Worker.js"
import type { WorldParts } from "./WorldParts.js"

export type PassName = "scan" | "balances" | "sweep" | "reclaim" | "automate" | "notify"

export const passNames: ReadonlyArray<PassName> = ["scan", "balances", "sweep", "reclaim", "automate", "notify"]

const passOf = (engine: Engine.Engine["Type"], name: PassName): Effect.Effect<unknown, unknown> =>
  name === "scan"
    ? engine.scanOnce
    : name === "balances"
    ? engine.syncBalancesOnce
    : name === "sweep"
    ? engine.sweepOnce
    : name === "reclaim"
    ? engine.reclaimOnce
    : name === "automate"
    ? engine.automateOnce
    : engine.notifyOnce

/**
 * Whether a pass died only of a lost database connection (on PostgreSQL, a connection cut): the
 * storage ports' failures are defects, and the engine's loops start a pass again after them as
 * after any failure (`restarting`); what the pass left half done is what the invariants judge.
 */
const lostDatabase = (cause: Cause.Cause<unknown>) => {
  const defects = [...Cause.defects(cause)]
  return defects.length > 0 && defects.every(isDatabaseUnavailable)
}

/** How long the clock may run while passes wait on it (a held node reply, a slow receiver) before the round gives up on them. */
const roundLimit = Duration.minutes(2)
const roundStep = Duration.millis(250)

/** Lets `turns` microtasks of the passes run (each fiber's step is one): a moment inside their work. */
const microtaskTurns = (turns: number) =>
  Effect.promise(() =>
    new Promise<void>((done) => {
      let left = turns
      const turn = () => (left-- <= 0 ? done() : queueMicrotask(turn))
      turn()
    })
  )

/** A worker's power cut planned inside a round: `turns` microtasks into the passes' work, or once the clock has moved `afterMillis`. */
interface PlannedCut {
  readonly worker: Worker
  readonly afterMillis: number
  readonly turns: number
}

type Running = { readonly worker: Worker; readonly label: string; readonly fiber: Fiber.RuntimeFiber<unknown, unknown> }

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
    private readonly settings: Engine.EngineSettings,
    private readonly crashAt: (worker: string, point: string) => Effect.Effect<boolean>,
    private readonly defect: (message: string) => void
  ) {
    this.cutDice = dice.stream("cuts")
  }

  private readonly cutDice: Dice

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

  /** The power cuts of this round, asked of the faults for each live worker, at moments from the cut dice. */
  private planCuts = (live: ReadonlyArray<Worker>) =>
    Effect.gen(this, function*() {
      const cuts: Array<PlannedCut> = []
      for (const worker of live) {
        if (!(yield* this.crashAt(worker.name, midRoundCut))) continue
        const during = this.cutDice.chance(0.5)
        cuts.push({ worker, afterMillis: during ? 0 : this.cutDice.int(1, Duration.toMillis(roundLimit)), turns: during ? this.cutDice.int(0, 400) : 0 })
      }
      return cuts
    })

  /** A power cut of `cut.worker` now: its gate closes first, so what its interrupted passes still do reaches nothing. */
  private cutNow = (cut: PlannedCut, running: ReadonlyArray<Running>) =>
    Effect.gen(this, function*() {
      if (!cut.worker.isUp) return
      this.trace.record(`fault mid-round cut ${cut.worker.name} after ${cut.afterMillis} ms ${cut.turns} turns`)
      yield* this.crash(cut.worker)
      yield* Fiber.interruptAll(running.filter((r) => r.worker === cut.worker).map((r) => r.fiber))
    })

  /** One round: each live worker's engines each run each pass with its chance, all at once. */
  round = (p: number, passes: ReadonlyArray<PassName> = passNames) =>
    Effect.gen(this, function*() {
      yield* this.startDue
      const running: Array<Running> = []
      const live = this.world.workers.filter((w) => w.isUp)
      const cuts = yield* this.planCuts(live)
      const scanner = live.length === 0 ? undefined : this.dice.pick(live)
      for (const worker of live) {
        const life = worker.current!
        for (const [network, engine] of life.engines) {
          for (const name of passes) {
            if (!this.dice.chance(this.chanceOf(name, p, worker === scanner))) continue
            const label = `${worker.name}${life.generation}:${network}:${name}`
            this.trace.record(`pass ${label}`)
            running.push({ worker, label, fiber: yield* Effect.fork(passOf(engine, name)) })
          }
        }
      }
      this.passesRun += running.length
      for (const cut of cuts.filter((c) => c.afterMillis === 0)) {
        yield* microtaskTurns(cut.turns)
        yield* this.cutNow(cut, running)
      }
      yield* this.time.settle
      const started = this.time.millis
      const deadline = started + Duration.toMillis(roundLimit)
      const later = cuts.filter((c) => c.afterMillis > 0)
      while (running.some(({ fiber }) => fiber.unsafePoll() === null) && this.time.millis < deadline) {
        yield* this.time.advance(roundStep)
        for (const cut of later.filter((c) => started + c.afterMillis <= this.time.millis)) {
          later.splice(later.indexOf(cut), 1)
          yield* this.cutNow(cut, running)
        }
      }
      // Cuts due after every pass ended land between this round and the next.
      for (const cut of later) yield* this.cutNow(cut, running)
      for (const { fiber, label } of running) {
        const exit = fiber.unsafePoll()
        if (exit === null) {
          // Still waiting when the round ended: as a request that never comes back.
          yield* Fiber.interrupt(fiber)
          this.trace.record(`abandoned ${label}`)
        } else if (Exit.isFailure(exit) && !Cause.isInterruptedOnly(exit.cause) && Cause.isDie(exit.cause)) {
          if (lostDatabase(exit.cause)) this.trace.record(`lost database ${label}`)
          else this.defect(`${label} died: ${Cause.pretty(exit.cause).split("\n")[0]}`)
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
