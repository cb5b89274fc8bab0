import { Schema } from "effect"

const maxInt64 = 9223372036854775807n

/** True for the canonical text of a positive int64: digits only, no leading zero, no sign. */
export const isCanonicalPositiveInt64 = (text: string): boolean =>
  /^[1-9][0-9]{0,18}$/.test(text) && BigInt(text) <= maxInt64

/** A positive int64 carried as its canonical decimal string (IDs are never JS numbers). */
export const Int64Id = Schema.String.pipe(
  Schema.filter((s) => isCanonicalPositiveInt64(s) || "must be a positive integer ID (1 to 9223372036854775807, no leading zeros or sign)")
)

/** Numeric order of canonical ID strings (string order would put "10" before "9"). */
export const compareIds = (a: string, b: string): number => {
  const x = BigInt(a)
  const y = BigInt(b)
  return x < y ? -1 : x > y ? 1 : 0
}
