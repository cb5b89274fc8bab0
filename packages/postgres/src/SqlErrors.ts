import type { SqlError } from "@effect/sql/SqlError"

const pgErrorOf = (error: unknown): { code?: unknown; constraint?: unknown } | undefined =>
  typeof error === "object" && error !== null && (error as { _tag?: string })._tag === "SqlError"
    ? ((error as SqlError).cause as { code?: unknown; constraint?: unknown } | undefined)
    : undefined

/** PostgreSQL's `unique_violation` (23505) of one named constraint (or unique index). */
export const isUniqueViolationOf = (constraint: string) => (error: unknown): boolean => {
  const pg = pgErrorOf(error)
  return pg?.code === "23505" && pg.constraint === constraint
}
