import { Cause, Clock, Context, Effect, Exit, Layer, Metric, Option } from "effect"
import type { Network } from "../kernel/Network.js"
import { databaseWaiting } from "./DatabaseWaitMetrics.js"

/** A component of this process that met the database out of reach and has not reached it since. */
export interface DatabaseWait {
  /** A loop of an engine (`scanner`, `balance_sync`, `sweeper`, `reclaim`, `automation`, `notifier`, `fee_booking`) or `api`. */
  readonly component: string
  /** Absent for what the process has once (the API). */
  readonly network?: Network
  /** When it first met the database out of reach. */
  readonly since: Date
  /** What it met last time. */
  readonly reason: string
}

/** Tells a database out of reach (restarting, failing over, the pool unable to connect) from a bug. */
export type IsDatabaseUnreachable = (error: unknown) => boolean

export interface DatabaseWaitsShape {
  /** `component` failed: it waits for the database from now on when the failure is the database out of reach. */
  readonly failed: (component: string, network: Network | undefined, cause: Cause.Cause<unknown>) => Effect.Effect<void>
  /** `component` reached the database: it waits no more. */
  readonly answered: (component: string, network: Network | undefined) => Effect.Effect<void>
  /** Who waits now, in the order they began to. */
  readonly current: Effect.Effect<ReadonlyArray<DatabaseWait>>
}

// The storage ports die with the driver's error; a port that fails typed may carry it as well.
const unreachableIn = (cause: Cause.Cause<unknown>, isUnreachable: IsDatabaseUnreachable): Option.Option<unknown> =>
  Option.fromNullable([...Cause.defects(cause), ...Cause.failures(cause)].find(isUnreachable))

/** The messages along the error's cause chain (a SqlError wraps the driver's), once each, on one line. */
const describe = (error: unknown): string => {
  const messages: Array<string> = []
  let current: unknown = error
  for (let depth = 0; depth < 5 && current !== null && current !== undefined; depth++) {
    const message = typeof current === "object" && "message" in current ? String(current.message) : String(current)
    const line = message.split("\n")[0]!.trim()
    if (line !== "" && !messages.includes(line)) messages.push(line)
    current = typeof current === "object" && "cause" in current ? current.cause : undefined
  }
  return messages.join(": ") || "unreachable"
}

const keyOf = (component: string, network: Network | undefined) => `${network ?? ""}/${component}`

const nobody: DatabaseWaitsShape = { failed: () => Effect.void, answered: () => Effect.void, current: Effect.succeed([]) }

/**
 * Which components of this process wait for the database, kept in the process's memory: while
 * the database is out of reach (a failover, a restart) it cannot hold even the board the loops
 * report to, so `/readyz` asks here. Fed where the loops and the API meet storage failures and
 * where they reach the store again. Without a layer nothing is recorded: an embedder on the memory
 * store has no database to wait for.
 */
export class DatabaseWaits extends Context.Reference<DatabaseWaits>()("@collector/core/DatabaseWaits", {
  defaultValue: (): DatabaseWaitsShape => nobody
}) {
  /** Records waits in this process, telling a database out of reach by `isUnreachable` (the store's driver knows its errors). */
  static readonly layer = (isUnreachable: IsDatabaseUnreachable): Layer.Layer<DatabaseWaits> =>
    Layer.sync(DatabaseWaits, () => {
      const waits = new Map<string, DatabaseWait>()
      const gauge = (wait: { readonly component: string; readonly network?: Network | undefined }, value: number) =>
        Metric.set(databaseWaiting(wait.component, wait.network ?? ""), value)
      return {
        failed: (component, network, cause) =>
          Option.match(unreachableIn(cause, isUnreachable), {
            onNone: () => Effect.void,
            onSome: (error) =>
              Effect.flatMap(Clock.currentTimeMillis, (now) => {
                const key = keyOf(component, network)
                const began = waits.get(key)
                const wait: DatabaseWait = { component, ...(network === undefined ? {} : { network }), since: began?.since ?? new Date(now), reason: describe(error) }
                waits.set(key, wait)
                if (began !== undefined) return Effect.void
                return Effect.zipRight(
                  gauge(wait, 1),
                  Effect.logWarning(`${component}: waiting for the database`).pipe(Effect.annotateLogs({ ...(network === undefined ? {} : { network }), reason: wait.reason }))
                )
              })
          }),
        answered: (component, network) =>
          Effect.suspend(() => {
            const key = keyOf(component, network)
            const wait = waits.get(key)
            if (wait === undefined) return Effect.void
            waits.delete(key)
            return Effect.flatMap(Clock.currentTimeMillis, (now) =>
              Effect.zipRight(
                gauge(wait, 0),
                Effect.logInfo(`${component}: the database answers again`).pipe(
                  Effect.annotateLogs({ ...(network === undefined ? {} : { network }), waited_ms: now - wait.since.getTime() })
                )
              ))
          }),
        current: Effect.sync(() => [...waits.values()])
      }
    })

  /**
   * `effect` as one pass of `component` that goes to the database: failing with the database out
   * of reach, the component waits for it; succeeding, it waits no more. Any other failure leaves
   * things as they were (a node's failure says nothing of the database). The outcome is unchanged.
   */
  static readonly watching = (component: string, network?: Network) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.flatMap(DatabaseWaits, (waits) =>
      Effect.onExit(effect, (exit) =>
        Exit.isSuccess(exit)
          ? waits.answered(component, network)
          : Cause.isInterruptedOnly(exit.cause)
          ? Effect.void
          : waits.failed(component, network, exit.cause)))
}

/** The API process's own component: its requests met the database out of reach (answered 503). */
export const apiComponent = "api"
