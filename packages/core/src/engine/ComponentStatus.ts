import { Context, type Effect } from "effect"
import type { Network } from "../kernel/Network.js"

/** What a worker component last said about itself (scanner, balance sync, notifier, sweeper). */
export interface ComponentReport {
  readonly component: string
  readonly network: Network
  /** `ok`, `degraded` (working, with a problem named in the detail) or `stopped`. */
  readonly status: string
  readonly detail: string
  readonly updatedAt: Date
}

/** Port: the heartbeat board the worker writes and the dashboard reads. */
export class ComponentStatus extends Context.Tag("@collector/core/ComponentStatus")<
  ComponentStatus,
  {
    readonly report: (report: ComponentReport) => Effect.Effect<void>
    readonly list: (network: Network) => Effect.Effect<ReadonlyArray<ComponentReport>>
  }
>() {}
