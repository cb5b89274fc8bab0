import { acquireEmbeddedDatabase } from "@collector/postgres"
import { Effect, Exit, Redacted, Scope } from "effect"

/**
 * An embedded PostgreSQL the test owns, kept in `directory` on `port`, so it can be stopped and
 * started again under a running process: the same data and the same URL each time.
 */
export const startDatabase = async (directory: string, port: number) => {
  const scope = Effect.runSync(Scope.make())
  const url = await Effect.runPromise(Scope.extend(acquireEmbeddedDatabase({ directory, port, persistent: true }), scope))
  return { url: Redacted.value(url), stop: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}
