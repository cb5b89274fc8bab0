import { Effect } from "effect"
import { depositsMatchChain } from "./invariants/DepositsMatchChain"
import { replaysIdentical } from "./invariants/ReplaysIdentical"
import { SnapshotReader } from "./Snapshot"
import type { WorldParts } from "./World"

/**
 * Every invariant, checked once the service has settled, each violation a line with its figures.
 */
export const checkInvariants = (world: WorldParts) =>
  Effect.gen(function*() {
    const snapshot = yield* Effect.flatMap(SnapshotReader, (reader) => reader.read)
    return [
      ...(yield* depositsMatchChain(world, snapshot)),
      ...(yield* replaysIdentical(world))
    ]
  })
