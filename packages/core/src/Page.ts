/** One page of a list operation: its items and how many match in all (every page alike). */
export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly total: number
}
