/**
 * Whether a failure says the database cannot be reached right now (restarting, failing over, the
 * pool unable to connect), as opposed to a bug: tenants then get a 503 with Retry-After, a thing
 * to retry, rather than a 500. The cause chain is walked because SqlError wraps the driver's error.
 */
// 25006 (read_only_sql_transaction): a write reached a server demoted to standby or fenced
// read-only during a failover; the connection is dropped and the next one goes to the new primary.
const connectionCodes = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "57P01", "57P02", "57P03", "25006"])

// node-postgres answers "Client has encountered a connection error and is not queryable", without a
// code, to a statement sent on a connection that already broke: a transaction whose connection was
// lost with the primary (the failover test met it as a 500 on POST /open/v1/sweeps).
const connectionMessages = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /encountered a connection error and is not queryable/i
]

/** Seconds a tenant is asked to wait: a restart of PostgreSQL takes a few. */
export const databaseRetryAfterSeconds = 5

export const isDatabaseUnavailable = (error: unknown): boolean => {
  const seen = new Set<unknown>()
  let current: unknown = error
  while (current !== null && typeof current === "object" && !seen.has(current)) {
    seen.add(current)
    const { cause, code, message } = current as { code?: unknown; message?: unknown; cause?: unknown }
    if (typeof code === "string" && (connectionCodes.has(code) || code.startsWith("08"))) return true
    if (typeof message === "string" && connectionMessages.some((pattern) => pattern.test(message))) return true
    // AggregateError (a connect to both ::1 and 127.0.0.1) keeps its parts in `errors`.
    const parts = (current as { errors?: unknown }).errors
    if (Array.isArray(parts) && parts.some(isDatabaseUnavailable)) return true
    current = cause
  }
  return false
}
