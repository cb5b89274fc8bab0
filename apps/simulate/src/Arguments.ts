import { type CutPlan, moneyStepNames, type PlantName, plantNames, type StorageKind, storageKinds } from "@collector/simulation"
import { availableParallelism } from "node:os"

export interface Arguments {
  readonly seed: number
  readonly runs: number
  readonly plant: PlantName | undefined
  readonly storage: StorageKind
  /** Processes that run seeds at once (1: this process runs them itself). */
  readonly jobs: number
  readonly verbose: boolean
  /** The service's own logs (info and above), for debugging one seed. */
  readonly logs: boolean
  /** Succeed only when violations were found (a plant's check: its defect must be caught). */
  readonly expectViolations: boolean
  /** On PostgreSQL, which money steps lose their connection (`none`, `drawn`, or one step's name: every run of it). */
  readonly connectionCuts: CutPlan
}

export const usage =
  "usage: npm run simulate -- [--seed S] [--runs N] [--plant NAME] [--storage memory|postgres] [--connection-cuts none|drawn|STEP] [--jobs J] [--verbose] [--logs] [--expect-violations]"

/** A command line that cannot be run: the one line that says why. */
export class ArgumentError extends Error {}

const count = (flag: string, text: string, least: number): number => {
  if (!/^\d+$/.test(text) || Number(text) < least || !Number.isSafeInteger(Number(text))) {
    throw new ArgumentError(`--${flag} takes a whole number of at least ${least}, not '${text}'`)
  }
  return Number(text)
}

const oneOf = <A extends string>(flag: string, text: string, allowed: ReadonlyArray<A>): A => {
  if (!(allowed as ReadonlyArray<string>).includes(text)) {
    throw new ArgumentError(
      allowed.length === 0 ? `--${flag} '${text}': there is none to choose from yet` : `--${flag} takes one of ${allowed.join(", ")}, not '${text}'`
    )
  }
  return text as A
}

/**
 * The simulator's command line, strictly: every flag known, each value checked, none given
 * twice. Seeds are whole numbers from 0; `--jobs` defaults to the machine's CPUs (at most one per run).
 */
export const parseArguments = (argv: ReadonlyArray<string>): Arguments => {
  const values = new Map<string, string>()
  const switches = new Set<string>()
  const valued = ["seed", "runs", "plant", "storage", "connection-cuts", "jobs"]
  const flags = ["verbose", "logs", "expect-violations"]
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!
    const name = word.startsWith("--") ? word.slice(2) : undefined
    if (name === undefined) throw new ArgumentError(`unexpected argument '${word}' (${usage})`)
    if (values.has(name) || switches.has(name)) throw new ArgumentError(`--${name} is given twice`)
    if (flags.includes(name)) switches.add(name)
    else if (valued.includes(name)) {
      const value = argv[i + 1]
      if (value === undefined || value.startsWith("--")) throw new ArgumentError(`--${name} needs a value`)
      values.set(name, value)
      i++
    } else throw new ArgumentError(`unknown flag '${word}' (${usage})`)
  }
  if (values.has("plant") && values.get("storage") === "postgres") {
    throw new ArgumentError(`the plants wrap the memory store: --plant runs on --storage memory only`)
  }
  const cuts = values.get("connection-cuts") ?? "none"
  if (cuts !== "none" && values.get("storage") !== "postgres") {
    throw new ArgumentError(`a connection cut is PostgreSQL's: --connection-cuts needs --storage postgres`)
  }
  const runs = count("runs", values.get("runs") ?? "1", 1)
  const jobs = values.has("jobs") ? count("jobs", values.get("jobs")!, 1) : availableParallelism()
  return {
    seed: count("seed", values.get("seed") ?? "1", 0),
    runs,
    plant: values.has("plant") ? oneOf("plant", values.get("plant")!, plantNames) : undefined,
    storage: oneOf("storage", values.get("storage") ?? "memory", storageKinds),
    jobs: Math.min(jobs, runs),
    verbose: switches.has("verbose"),
    logs: switches.has("logs"),
    expectViolations: switches.has("expect-violations"),
    connectionCuts: cuts === "none" || cuts === "drawn" ? cuts : { forced: oneOf("connection-cuts", cuts, moneyStepNames) }
  }
}
