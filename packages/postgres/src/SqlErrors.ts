import type { SqlError } from "@effect/sql/SqlError"

const codeOf = (error: unknown): string | undefined => {
  const cause = (error as SqlError | undefined)?.cause as { code?: unknown } | undefined
  return typeof cause?.code === "string" ? cause.code : undefined
}

/** PostgreSQL's `unique_violation` (23505), however deep the driver wrapped it. */
export const isUniqueViolation = (error: unknown): boolean =>
  typeof error === "object" && error !== null && (error as { _tag?: string })._tag === "SqlError" && codeOf(error) === "23505"
