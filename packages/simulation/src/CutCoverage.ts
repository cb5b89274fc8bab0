import { type CutPhase, cutPath, type MoneyStep, moneyStepNames, statementsPath } from "./faults/ConnectionCuts.js"

/** How the connection cuts of some runs covered one money step's statements. */
export interface StepCoverage {
  readonly step: MoneyStep
  /** The most statements a run of the step sent (or was cut at). */
  readonly statements: number
  readonly cuts: number
  /** The positions (`3.after`) up to `statements` never cut. */
  readonly missing: ReadonlyArray<string>
}

const phases: ReadonlyArray<CutPhase> = ["before", "after"]

/** The path counts of runs' workload summaries (`key=n key=n …`), summed. */
const summed = (workloads: Iterable<string>) => {
  const counts = new Map<string, number>()
  for (const workload of workloads) {
    for (const entry of workload.split(" ")) {
      const at = entry.lastIndexOf("=")
      if (at > 0) counts.set(entry.slice(0, at), (counts.get(entry.slice(0, at)) ?? 0) + Number(entry.slice(at + 1)))
    }
  }
  return counts
}

/**
 * Which statement positions of each money step the connection cuts of these runs hit, before
 * and after the statement, out of the most statements a run of the step sent: the evidence that
 * every position is reached, from the runs' path counts (`cut.…`, `statements.…`).
 */
export const cutCoverage = (workloads: Iterable<string>): ReadonlyArray<StepCoverage> => {
  const counts = summed(workloads)
  return moneyStepNames.map((step) => {
    let statements = 0
    for (const key of counts.keys()) {
      const prefix = statementsPath(step, 0).slice(0, -1)
      if (key.startsWith(prefix)) statements = Math.max(statements, Number(key.slice(prefix.length)))
    }
    let cuts = 0
    const hit = new Set<string>()
    for (let statement = 1; statement <= statements + 1; statement++) {
      for (const phase of phases) {
        const n = counts.get(cutPath(step, statement, phase)) ?? 0
        if (n === 0) continue
        cuts += n
        hit.add(`${statement}.${phase}`)
        statements = Math.max(statements, statement)
      }
    }
    const missing: Array<string> = []
    for (let statement = 1; statement <= statements; statement++) {
      for (const phase of phases) if (!hit.has(`${statement}.${phase}`)) missing.push(`${statement}.${phase}`)
    }
    return { step, statements, cuts, missing }
  })
}

/** One line of `cutCoverage` for the command's output. */
export const coverageLine = ({ cuts, missing, statements, step }: StepCoverage) =>
  `connection cuts ${step}: ${statements} statements, ${cuts} cuts, ${
    statements === 0 ? "no statement seen" : missing.length === 0 ? "every statement cut before and after" : `never cut at ${missing.join(" ")}`
  }`
