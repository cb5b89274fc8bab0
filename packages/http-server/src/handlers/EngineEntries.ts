import { Engine } from "@collector/core"
import { Clock, Effect } from "effect"

export interface EngineEntry {
  readonly component: string
  readonly status: string
  readonly detail: string
  readonly updated_at: string
}

/** A worker reports about every few seconds; a minute of silence means it is not running as it should. */
export const staleAfterMillis = 60_000

/**
 * The dashboard's worker entries for one network, judged at the current time: each component's
 * state as it last reported, `stale` when that report is older than 60 s, or one `worker` entry
 * `stopped` when no worker ever reported. A tenant reads these, so the detail is the fixed reason
 * of the state (`TenantHealth.ts`), never the component's own words: those are the operator's.
 */
export const workerEntries = (reports: ReadonlyArray<Engine.ComponentReport>) =>
  Effect.map(Clock.currentTimeMillis, (now): ReadonlyArray<EngineEntry> => {
    if (reports.length === 0) {
      return [{ component: "worker", status: "stopped", detail: "no worker has reported for this network", updated_at: new Date(now).toISOString() }]
    }
    return reports.map((report) => {
      const updatedAt = report.updatedAt.toISOString()
      const age = now - report.updatedAt.getTime()
      return { component: report.component, ...Engine.tenantHealth(age <= staleAfterMillis ? report.status : "stale"), updated_at: updatedAt }
    })
  })
