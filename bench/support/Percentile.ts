/** The nearest-rank percentile `p` (0–100) of values already sorted ascending; 0 for none. */
export const percentileOfSorted = (sorted: ReadonlyArray<number>, p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))]!

/** The nearest-rank percentile `p` (0–100) of values in any order. */
export const percentile = (values: ReadonlyArray<number>, p: number) => percentileOfSorted([...values].sort((a, b) => a - b), p)
