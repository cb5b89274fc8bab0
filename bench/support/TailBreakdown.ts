import { existsSync, mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { repositoryRoot } from "../../test-support/Processes.js"

/** A pause a server logged (bench/support/PauseLog.mjs): a collection of some kind, or its loop busy. */
export interface Pause {
  readonly kind: string
  /** Wall clock, ms since the epoch. */
  readonly at: number
  readonly ms: number
}

/** Where servers started with `pauseLogFlags` write their pauses; set before they are spawned. */
export const enablePauseLog = (): { readonly directory: string; readonly nodeArgs: ReadonlyArray<string> } => {
  const directory = mkdtempSync(join(tmpdir(), "bench-pauses-"))
  process.env.PAUSE_LOG_DIR = directory
  return { directory, nodeArgs: ["--import", resolve(repositoryRoot, "bench/support/PauseLog.mjs")] }
}

export const pausesOf = (directory: string, pid: number): ReadonlyArray<Pause> => {
  const file = join(directory, `pauses-${pid}.jsonl`)
  if (!existsSync(file)) return []
  return readFileSync(file, "utf8").split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as Pause)
}

const overlaps = (from: number, to: number, pause: Pause) => pause.at < to && pause.at + pause.ms > from

export interface Tail {
  readonly requests: number
  readonly overGoal: number
  /** Slow requests during which the server collected garbage. */
  readonly duringCollection: number
  /** Slow requests during which the server's loop ran no timer for 5 ms or more (busy, or the process not scheduled), with no collection. */
  readonly duringBusyLoop: number
  /** Slow requests during neither: waiting on PostgreSQL, the network or the machine's other processes. */
  readonly neither: number
  /** Collection pauses in the load's window, by kind: count, total ms, longest ms. */
  readonly collections: ReadonlyArray<readonly [string, number, number, number]>
  /** Busy stretches of 10 ms or more in the window, and the longest. */
  readonly longBusy: number
  readonly longestBusy: number
  readonly seconds: number
}

/**
 * Each request of a constant-rate load slower than `goalMs`, set beside the pauses its server logged
 * in the same run: a request that overlapped a collection counts there, else one that overlapped a
 * busy loop, else neither. Which cause a request is counted under is the first that fits, not proof
 * that it alone made the request slow.
 */
export const tailOf = (
  load: { readonly slow: ReadonlyArray<readonly [number, number]>; readonly window: readonly [number, number]; readonly requests: number },
  pauses: ReadonlyArray<Pause>,
  goalMs: number
): Tail => {
  const [from, to] = load.window
  const inWindow = pauses.filter((p) => overlaps(from, to, p))
  const collections = inWindow.filter((p) => p.kind !== "loop busy")
  const busy = inWindow.filter((p) => p.kind === "loop busy")
  let duringCollection = 0
  let duringBusyLoop = 0
  let neither = 0
  const slow = load.slow.filter(([, latency]) => latency > goalMs)
  for (const [due, latency] of slow) {
    if (collections.some((p) => overlaps(due, due + latency, p))) duringCollection++
    else if (busy.some((p) => overlaps(due, due + latency, p))) duringBusyLoop++
    else neither++
  }
  const kinds = [...new Set(collections.map((p) => p.kind))].sort()
  return {
    requests: load.requests,
    overGoal: slow.length,
    duringCollection,
    duringBusyLoop,
    neither,
    collections: kinds.map((kind) => {
      const of = collections.filter((p) => p.kind === kind)
      return [kind, of.length, of.reduce((sum, p) => sum + p.ms, 0), Math.max(...of.map((p) => p.ms))] as const
    }),
    longBusy: busy.filter((p) => p.ms >= 10).length,
    longestBusy: Math.max(0, ...busy.map((p) => p.ms)),
    seconds: (to - from) / 1000
  }
}

const ms = (x: number) => x.toFixed(1)

/** The table of `tailOf` for a row's servers, side by side. */
export const printTails = (log: (line: string) => void, title: string, goalMs: number, tails: ReadonlyArray<readonly [string, Tail]>) => {
  log(`\ntail of ${title}: requests over ${goalMs} ms, by what their server was doing meanwhile (bench/support/TailBreakdown.ts)`)
  log("| server | requests | over the goal | during a collection | during a loop hold-up, no collection | neither | collections in the window: count, ms per s, longest ms | hold-ups ≥ 10 ms: count, longest ms |")
  log("|---|---:|---:|---:|---:|---:|---|---|")
  for (const [server, t] of tails) {
    const collections = t.collections.map(([kind, count, total, longest]) => `${kind} ${count}, ${ms(total / t.seconds)}, ${ms(longest)}`).join("; ")
    log(`| ${server} | ${t.requests} | ${t.overGoal} | ${t.duringCollection} | ${t.duringBusyLoop} | ${t.neither} | ${collections === "" ? "none" : collections} | ${t.longBusy}, ${ms(t.longestBusy)} |`)
  }
}
