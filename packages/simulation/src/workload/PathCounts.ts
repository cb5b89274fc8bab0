/**
 * How often a run reached each of the money paths the workload and the faults aim at (a
 * collection address that is a wallet, a transaction with logs of several contracts, a provider
 * answer lost before the order, the provider's look-up down, a crash right after an order call,
 * a deposit solidified while the run goes on): the evidence that they are reached, printed with
 * the workload summary and counted over seeds by a test. Never part of the trace.
 */
export class PathCounts {
  private readonly counts = new Map<string, number>()

  count(path: string, n = 1): void {
    if (n > 0) this.counts.set(path, (this.counts.get(path) ?? 0) + n)
  }

  get entries(): ReadonlyArray<readonly [string, number]> {
    return [...this.counts]
  }
}
