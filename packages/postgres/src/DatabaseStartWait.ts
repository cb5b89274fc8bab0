import { SqlError } from "@effect/sql/SqlError"
import { Data, Duration, Effect, Layer, Redacted, Schedule } from "effect"
import { hostListOf } from "./MultiHostUrl.js"

export class DatabaseUnavailable extends Data.TaggedError("DatabaseUnavailable")<{ readonly message: string }> {}

// Socket errors while the server is down or restarting, and the SQLSTATEs of a server that is
// there but not yet (or no longer) taking connections: crash recovery (57P03), shutting down
// (57P01, 57P02), too many connections (53300), a connection that failed on the way (08xxx).
const transientCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "57P01",
  "57P02",
  "57P03",
  "53300",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006"
])

const causeOf = (error: unknown): { readonly code?: unknown; readonly message?: unknown } =>
  error instanceof SqlError && typeof error.cause === "object" && error.cause !== null ? error.cause : {}

/**
 * Whether a failed connection may succeed later: the server is unreachable, starting, recovering
 * or full. A refused password or a missing database is not waited for.
 */
export const isTransientConnectFailure = (error: unknown): boolean => isTransientDriverError(causeOf(error))

/** The same judgement on node-postgres' own error (a probe of one server of a multi-host URL). */
export const isTransientDriverError = (cause: { readonly code?: unknown; readonly message?: unknown }): boolean => {
  if (typeof cause.code === "string") return transientCodes.has(cause.code)
  const message = typeof cause.message === "string" ? cause.message : ""
  return /Connection (timed out|terminated)|timeout expired/i.test(message)
}

const reasonOf = (error: unknown) => {
  const cause = causeOf(error)
  return typeof cause.message === "string" && cause.message !== "" ? cause.message : String(error)
}

const hostOf = (url: Redacted.Redacted) => {
  const hosts = hostListOf(Redacted.value(url))
  if (hosts !== undefined && hosts.length > 1) return hosts.join(",")
  try {
    return new URL(Redacted.value(url)).host
  } catch {
    return "the configured server"
  }
}

/**
 * A database client layer that waits for its server at start: while the server is unreachable or
 * recovering it logs once that it is waiting, tries again with a back-off from 250 ms to 5 s, and
 * gives up after `timeoutMs` with one readable line. Other failures end the start at once.
 */
export const awaitingDatabase = <A, R>(
  url: Redacted.Redacted,
  timeoutMs: number,
  client: Layer.Layer<A, unknown, R>
): Layer.Layer<A, DatabaseUnavailable | unknown, R> => {
  const host = hostOf(url)
  let waiting = false
  const schedule = Schedule.exponential(Duration.millis(250), 2).pipe(
    Schedule.union(Schedule.spaced(Duration.seconds(5))),
    Schedule.upTo(Duration.millis(timeoutMs)),
    Schedule.whileInput(isTransientConnectFailure),
    Schedule.tapInput((error: unknown) =>
      waiting ? Effect.void : Effect.zipRight(
        Effect.sync(() => (waiting = true)),
        Effect.logWarning(`waiting for the database at ${host} (up to ${timeoutMs} ms): ${reasonOf(error)}`)
      )
    )
  )
  return Layer.retry(client, schedule).pipe(
    Layer.catchAll((error) =>
      Layer.fail(
        isTransientConnectFailure(error)
          ? new DatabaseUnavailable({ message: `the database at ${host} did not answer within ${timeoutMs} ms (DATABASE_START_TIMEOUT_MS): ${reasonOf(error)}` })
          : error
      )
    ),
    Layer.tap(() => (waiting ? Effect.logInfo(`the database at ${host} answers`) : Effect.void))
  )
}
