import { Context, Effect, Layer, Option } from "effect"
import type { Network } from "../kernel/Network.js"
import { type ComponentReport, ComponentStatus } from "./ComponentStatus.js"

const keyOf = (network: Network, component: string) => `${network}/${component}`

/**
 * What the loops of this process last reported, kept in memory. The board in the store
 * (`ComponentStatus`) keeps one row per network and component, written by whichever worker
 * reported last, so it cannot say whether the loops of this process are alive: a process's
 * readiness asks here.
 */
export class Heartbeats extends Context.Tag("@collector/core/Heartbeats")<
  Heartbeats,
  {
    readonly record: (report: ComponentReport) => void
    /** The component's last report in this process, if it ever reported. */
    readonly latest: (network: Network, component: string) => Option.Option<ComponentReport>
  }
>() {
  static readonly layer = Layer.sync(Heartbeats, () => {
    const reports = new Map<string, ComponentReport>()
    return {
      record: (report) => void reports.set(keyOf(report.network, report.component), report),
      latest: (network, component) => Option.fromNullable(reports.get(keyOf(network, component)))
    }
  })

  /**
   * The board the engine's loops report to: each report is recorded in `Heartbeats`, then written
   * to the `ComponentStatus` below (the store's board, which the dashboard reads).
   */
  static readonly recording: Layer.Layer<ComponentStatus, never, ComponentStatus | Heartbeats> = Layer.effect(
    ComponentStatus,
    Effect.gen(function*() {
      const board = yield* ComponentStatus
      const heartbeats = yield* Heartbeats
      return {
        report: (report) => Effect.zipRight(Effect.sync(() => heartbeats.record(report)), board.report(report)),
        list: board.list
      }
    })
  )
}
