import { Either, Option } from "effect"
import type { ProviderStanding } from "../energy/EnergyProvider.js"
import type { Network } from "../kernel/Network.js"
import type { ComponentReport } from "./ComponentStatus.js"
import type { DatabaseWait } from "./DatabaseWaits.js"

/**
 * One thing a process needs to do its work, judged: `database`, or per network `node`, `scanner`,
 * `notifier`, `sweeper`; and each component waiting for the database (`databaseWaitCheck`).
 */
export interface ReadinessCheck {
  readonly component: string
  /** Absent for what the process has once (the database). */
  readonly network?: Network
  readonly ready: boolean
  /** What was seen; when not ready, why. */
  readonly detail: string
}

export interface ReadinessReport {
  /** Every check is ready. */
  readonly ready: boolean
  readonly checks: ReadonlyArray<ReadinessCheck>
}

const seconds = (millis: number) => Math.floor(millis / 1000)

export const readinessOf = (checks: ReadonlyArray<ReadinessCheck>): ReadinessReport => ({ ready: checks.every((check) => check.ready), checks })

/** The store answered a round trip in `Right` milliseconds, or did not (`Left`: why). */
export const databaseCheck = (answer: Either.Either<number, string>): ReadinessCheck =>
  Either.match(answer, {
    onLeft: (reason) => ({ component: "database", ready: false, detail: reason }),
    onRight: (millis) => ({ component: "database", ready: true, detail: `answered in ${millis} ms` })
  })

/**
 * A component that waits for the database is not ready, whatever else is seen of it: it names
 * itself and since when, where the database check alone would say only that the store is away.
 */
export const databaseWaitCheck = ({ component, network, reason, since }: DatabaseWait): ReadinessCheck => ({
  component,
  ...(network === undefined ? {} : { network }),
  ready: false,
  detail: `waiting for the database since ${since.toISOString()}: ${reason}`
})

/** The node answered with its head block (`Right`), or did not (`Left`: why). */
export const nodeCheck = (
  network: Network,
  head: Either.Either<bigint, string>,
  nodes?: { readonly healthy: number; readonly total: number }
): ReadinessCheck => {
  // Only a network with several nodes says how many serve; one node's check reads as before.
  const serving = nodes === undefined || nodes.total < 2 ? "" : ` (${nodes.healthy} of ${nodes.total} nodes healthy)`
  return Either.match(head, {
    onLeft: (reason) => ({ component: "node", network, ready: false, detail: `${reason}${serving}` }),
    onRight: (number) => ({ component: "node", network, ready: true, detail: `head block ${number}${serving}` })
  })
}

/**
 * The energy providers of a network and which of them rest. Never makes the process unready:
 * deposits and webhooks need no provider, and with every provider resting a sweep still asks
 * them all. It is there for the operator, and says what rests and why.
 */
export const providersCheck = (network: Network, standings: ReadonlyArray<ProviderStanding>): ReadinessCheck => {
  const resting = standings.filter((s) => s.rest !== null)
  const serving = standings.length - resting.length
  const why = resting.map((s) => `${s.provider} rests until ${s.rest!.until.toISOString()}: ${s.rest!.reason}`)
  return {
    component: "energy_providers",
    network,
    ready: true,
    detail: [`${serving} of ${standings.length} serving (${standings.map((s) => s.provider).join(", ")})`, ...why].join("; ")
  }
}

/**
 * The scan is current when the stored cursor is at most `maxLag` blocks behind the node's head.
 * Without a cursor (nothing scanned yet) or a head (the node did not answer) it cannot be shown
 * to be, so it is not ready. The cursor is the network's, whichever worker holds its lease.
 */
export const scanLagCheck = (
  network: Network,
  head: Option.Option<bigint>,
  cursor: Either.Either<Option.Option<bigint>, string>,
  maxLag: number
): ReadinessCheck => {
  const check = (ready: boolean, detail: string): ReadinessCheck => ({ component: "scanner", network, ready, detail })
  if (Either.isLeft(cursor)) return check(false, `the stored cursor could not be read: ${cursor.left}`)
  if (Option.isNone(cursor.right)) return check(false, "no block stored yet: the scanner has not made its first pass")
  const stored = cursor.right.value
  if (Option.isNone(head)) return check(false, `lag unknown: the node did not answer (stored block ${stored})`)
  const behind = head.value - stored
  const lag = behind < 0n ? 0n : behind
  const seen = `lag ${lag} blocks (stored block ${stored}, head ${head.value})`
  return lag > BigInt(maxLag) ? check(false, `${seen}, more than ${maxLag}`) : check(true, seen)
}

/**
 * A loop of this process is alive when it reported within `maxAgeMillis` and did not report
 * itself stopped; `degraded` still counts as alive (it works and says what troubles it).
 */
export const heartbeatCheck = (
  network: Network,
  component: string,
  report: Option.Option<ComponentReport>,
  now: number,
  maxAgeMillis: number
): ReadinessCheck => {
  const check = (ready: boolean, detail: string): ReadinessCheck => ({ component, network, ready, detail })
  if (Option.isNone(report)) return check(false, "has not reported since this process started")
  const { detail, status, updatedAt } = report.value
  const age = Math.max(0, now - updatedAt.getTime())
  const said = detail === "" ? status : `${status}: ${detail}`
  if (age > maxAgeMillis) return check(false, `silent for ${seconds(age)} s, more than ${seconds(maxAgeMillis)} s; last said ${said}`)
  if (status === "stopped") return check(false, said)
  return check(true, `reported ${seconds(age)} s ago: ${said}`)
}
