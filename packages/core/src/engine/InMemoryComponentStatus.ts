import { Effect, Layer, Ref } from "effect"
import type { Network } from "../Network"
import { type ComponentReport, ComponentStatus } from "./ComponentStatus"

/**
 * The heartbeat board in memory, for tests and single-process runs: the latest report per
 * component and network, as the table keyed by (component, network) keeps it.
 */
export const makeInMemoryComponentStatus = Effect.gen(function*() {
  const board = yield* Ref.make(new Map<string, ComponentReport>())
  const key = (component: string, network: Network) => `${network}\u0000${component}`
  return ComponentStatus.of({
    report: (report) =>
      Ref.update(board, (current) => new Map(current).set(key(report.component, report.network), report)),
    list: (network) =>
      Effect.map(Ref.get(board), (current) =>
        [...current.values()]
          .filter((report) => report.network === network)
          .sort((a, b) => (a.component < b.component ? -1 : a.component > b.component ? 1 : 0)))
  })
})

export const InMemoryComponentStatus = Layer.effect(ComponentStatus, makeInMemoryComponentStatus)
