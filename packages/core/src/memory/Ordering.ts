/** -1, 0 or 1 as `a` sorts before, with or after `b` (bigints, numbers, or text in byte order like COLLATE "C"). */
export const compare = <A extends bigint | number | string>(a: A, b: A): number => a < b ? -1 : a > b ? 1 : 0

/** Canonical int64 IDs compared as the numbers they are, as PostgreSQL compares bigint columns. */
export const compareIds = (a: string, b: string): number => compare(BigInt(a), BigInt(b))

/** Timestamps with NULL sorting first, as `ORDER BY … NULLS FIRST`. */
export const compareDatesNullsFirst = (a: Date | null, b: Date | null): number =>
  a === null ? (b === null ? 0 : -1) : b === null ? 1 : compare(a.getTime(), b.getTime())
