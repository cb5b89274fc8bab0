import { Clock, Effect } from "effect"
import type { Network } from "../kernel/Network.js"

/**
 * Logs a node outage as one component sees it, once when it begins and once when it ends, instead
 * of a warning on every failed pass: an outage of an hour is two lines, and the second says how long
 * it lasted and how many passes it cost. `failed` on each pass that could not reach the node,
 * `reached` on each that did. Per process, per network.
 */
export const makeOutageLog = (component: string) => {
  const open = new Map<Network, { readonly since: number; readonly reason: string; failures: number }>()

  const failed = (network: Network, reason: string) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const outage = open.get(network)
      if (outage !== undefined) {
        outage.failures++
        return Effect.void
      }
      open.set(network, { since: now, reason, failures: 1 })
      return Effect.logWarning(`${component}: node outage began`).pipe(Effect.annotateLogs({ network, reason }))
    })

  const reached = (network: Network) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const outage = open.get(network)
      if (outage === undefined) return Effect.void
      open.delete(network)
      return Effect.logInfo(`${component}: node outage ended`).pipe(
        Effect.annotateLogs({ network, first_reason: outage.reason, lasted_ms: now - outage.since, failed_passes: outage.failures })
      )
    })

  return { failed, reached }
}

export type OutageLog = ReturnType<typeof makeOutageLog>
