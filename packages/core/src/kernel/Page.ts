/** One page of a list operation: its items and how many match in all (every page alike). */
export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly total: number
}

/**
 * The deepest row a list page may start at ((page - 1) * page_size): an offset is read and
 * skipped row by row, so deeper pages are refused and narrower filters asked for instead.
 */
export const maxPageOffset = 100_000
