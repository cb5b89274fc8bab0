import type { RunResult } from "@collector/simulation"

/**
 * The seeds of an invocation, handed out in order, and their results reported in seed order
 * whichever process finished first: the output and the summary do not depend on `--jobs`.
 */
export class SeedQueue {
  private next: number
  private reported: number
  private readonly done = new Map<number, RunResult>()

  constructor(private readonly first: number, private readonly runs: number, private readonly report: (result: RunResult) => void) {
    this.next = first
    this.reported = first
  }

  take(): number | undefined {
    return this.next < this.first + this.runs ? this.next++ : undefined
  }

  finish(result: RunResult) {
    this.done.set(result.seed, result)
    while (this.done.has(this.reported)) this.report(this.done.get(this.reported++)!)
  }

  get results(): ReadonlyArray<RunResult> {
    return [...this.done.values()]
  }

  get complete(): boolean {
    return this.done.size === this.runs
  }
}
