import { SimState } from "@collector/tron-sim"
import { Effect } from "effect"
import { SnapshotReader } from "./Snapshot.js"
import type { WorldParts } from "./WorldParts.js"

/** Each network's head block now: where the run's own payments start once the opening is buried. */
export const headsOf = (world: WorldParts) =>
  Effect.map(
    Effect.forEach(world.networks, ({ network, sim }) => Effect.map(sim.chain.state, (state) => [network, SimState.head(state).number] as const)),
    (heads) => new Map(heads)
  )

/**
 * Counts, before the settling, the deposits of the run's own payments (in blocks above
 * `startHeads`) whose block the chain has solidified already (`deposit.solid-in-run`), and those
 * of them booked under the `solidified` rule (`deposit.solidified-rule-in-run`): the evidence that
 * runs reach solidification while the workload and the faults go on, not only in the settling.
 */
export const countSolidifiedInRun = (world: WorldParts, startHeads: ReadonlyMap<string, bigint>) =>
  Effect.gen(function*() {
    const { deposits } = yield* Effect.flatMap(SnapshotReader, (reader) => reader.read)
    for (const { network, sim } of world.networks) {
      const solid = SimState.solidified(yield* sim.chain.state).number
      const start = startHeads.get(network) ?? solid
      const solidInRun = deposits.filter((d) =>
        d.network === network && d.status === "confirmed" && d.blockNumber > start && d.blockNumber <= solid
      )
      world.paths.count("deposit.solid-in-run", solidInRun.length)
      world.paths.count("deposit.solidified-rule-in-run", solidInRun.filter((d) => d.confirmationType === "solidified").length)
    }
  })
