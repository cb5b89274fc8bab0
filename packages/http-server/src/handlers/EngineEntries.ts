import type { ComponentReport } from "@collector/core"
import { Clock, Effect } from "effect"

export interface EngineEntry {
  readonly component: string
  readonly status: string
  readonly detail: string
  readonly updated_at: string
}

/** A worker reports about every few seconds; a minute of silence means it is not running as it should. */
export const staleAfterMillis = 60_000

const seconds = (millis: number) => Math.floor(millis / 1000)

/**
 * The dashboard's worker entries for one network, judged at the current time: each component as
 * it last reported, `stale` when that report is older than 60 s (its detail says when it was last
 * heard from and what it said), or one `worker` entry `stopped` when no worker ever reported.
 */
export const workerEntries = (reports: ReadonlyArray<ComponentReport>) =>
  Effect.map(Clock.currentTimeMillis, (now): ReadonlyArray<EngineEntry> => {
    if (reports.length === 0) {
      return [{ component: "worker", status: "stopped", detail: "no worker has reported for this network", updated_at: new Date(now).toISOString() }]
    }
    return reports.map((report) => {
      const updatedAt = report.updatedAt.toISOString()
      const age = now - report.updatedAt.getTime()
      if (age <= staleAfterMillis) return { component: report.component, status: report.status, detail: report.detail, updated_at: updatedAt }
      const said = report.detail === "" ? report.status : `${report.status}: ${report.detail}`
      return {
        component: report.component,
        status: "stale",
        detail: `last heard from at ${updatedAt} (${seconds(age)} s ago), when it reported ${said}`,
        updated_at: updatedAt
      }
    })
  })
