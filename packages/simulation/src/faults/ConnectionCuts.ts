import { Effect, Fiber, FiberRef, Option } from "effect"
import type { Dice } from "../Dice.js"
import type { Trace } from "../Trace.js"
import type { PathCounts } from "../workload/PathCounts.js"
import { faultRates } from "./FaultRates.js"

/** The money-moving steps whose statements a connection cut can hit (`MoneySteps.ts` names them). */
export const moneyStepNames = [
  "sweep.claim",
  "sweep.prepare",
  "sweep.sign",
  "sweep.broadcast",
  "sweep.settle",
  "sweep.finish",
  "scan.append",
  "scan.rewind",
  "deposit.reserve-ids",
  "deposit.book",
  "deposit.revert",
  "delivery.claim",
  "delivery.mark-sending",
  "delivery.finish",
  "delivery.withdraw",
  "delivery.fail-round",
  "delivery.end-round"
] as const

export type MoneyStep = (typeof moneyStepNames)[number]

/** Where the connection is cut at a statement: before it is sent, or once it ran and before its reply is read. */
export type CutPhase = "before" | "after"

/**
 * Which steps' statements are cut: `none` (the default), `drawn` (every step at its rate of
 * `faultRates`, through `RunOptions.connectionCuts`), or `{ forced }` (every run of
 * that step, no other). Drawn cuts are not the default: a seed with them did not replay to the
 * same trace in a CI run on a loaded machine (seed 3), so they are not yet part of what a seed's
 * trace promises.
 */
export type CutPlan = "none" | "drawn" | { readonly forced: MoneyStep }

/** One run of a money step: the statements it sent so far and where, if anywhere, its connection is cut. */
export interface StepRun {
  readonly kind: MoneyStep
  statements: number
  readonly cutAt: { readonly statement: number; readonly phase: CutPhase } | undefined
  cut: boolean
}

/** The step the running fiber is in, set around each money step's port call. */
const currentStep = FiberRef.unsafeMake<StepRun | undefined>(undefined)

/** The path count of a cut (`cut.<step>.<statement>.<phase>`), and of a step run to its end uncut (`statements.<step>.<n>`). */
export const cutPath = (kind: MoneyStep, statement: number, phase: CutPhase) => `cut.${kind}.${statement}.${phase}`
export const statementsPath = (kind: MoneyStep, statements: number) => `statements.${kind}.${statements}`

/**
 * Connection losses in the middle of money-moving steps, on PostgreSQL: each run of a step draws
 * from its own dice whether its connection is cut, at which of its statements (1 to one more
 * than the most the step has sent so far in this run, so positions the run has not seen yet are
 * reached too) and whether before the statement is sent or after it ran, its reply lost (a
 * COMMIT then done without the caller knowing). The cut itself is `TrackedPool`'s; each is
 * recorded in the trace and counted by position for coverage. Not healed for the settling: a cut
 * lasts one statement, and most finishes, bookings and deliveries of a run happen there.
 */
export class ConnectionCuts {
  private readonly mostStatements = new Map<MoneyStep, number>()
  private readonly runs = new Map<MoneyStep, number>()

  constructor(private readonly dice: Dice, private readonly trace: Trace, private readonly paths: PathCounts, private readonly plan: CutPlan = "none") {}

  /** `effect` as one run of `kind`: its statements are counted, and its connection is cut where the dice said. */
  readonly within = <A, E, R>(kind: MoneyStep, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.suspend(() => {
      const step: StepRun = { kind, statements: 0, cutAt: this.draw(kind), cut: false }
      return Effect.locally(effect, currentStep, step).pipe(Effect.ensuring(Effect.sync(() => this.end(step))))
    })

  /** The money step the running fiber is in, if any. */
  readonly current = (): StepRun | undefined =>
    Option.match(Fiber.getCurrentFiber(), { onNone: () => undefined, onSome: (fiber) => fiber.getFiberRef(currentStep) })

  /** Counts one statement of `step`: where its connection is cut at it, if it is. */
  readonly at = (step: StepRun): CutPhase | undefined => {
    if (step.cut) return undefined
    step.statements++
    if (step.cutAt === undefined || step.cutAt.statement !== step.statements) return undefined
    step.cut = true
    this.trace.record(`fault connection cut ${step.kind} statement ${step.statements} ${step.cutAt.phase}`)
    this.paths.count(cutPath(step.kind, step.statements, step.cutAt.phase))
    return step.cutAt.phase
  }

  private rate(kind: MoneyStep): number {
    if (this.plan === "none") return 0
    if (this.plan !== "drawn") return this.plan.forced === kind ? 1 : 0
    const run = (this.runs.get(kind) ?? 0) + 1
    this.runs.set(kind, run)
    return Math.min(faultRates.connectionCutMost, faultRates.connectionCuts / run)
  }

  private draw(kind: MoneyStep): StepRun["cutAt"] {
    const rate = this.rate(kind)
    if (rate === 0 || !this.dice.chance(rate)) return undefined
    const statement = this.dice.int(1, (this.mostStatements.get(kind) ?? 0) + 1)
    return { statement, phase: this.dice.chance(0.5) ? "before" : "after" }
  }

  private end(step: StepRun) {
    if (step.statements > (this.mostStatements.get(step.kind) ?? 0)) this.mostStatements.set(step.kind, step.statements)
    if (!step.cut) this.paths.count(statementsPath(step.kind, step.statements))
  }
}
