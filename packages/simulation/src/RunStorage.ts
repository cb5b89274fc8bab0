import { Memory, type Storage } from "@collector/core"
import { Layer } from "effect"
import type { PendingWork } from "./PendingWork.js"
import { type PlantName, plantLayer } from "./Plants.js"
import { SnapshotReader } from "./Snapshot.js"
import type { Trace } from "./Trace.js"

/** The stores a run can use (`--storage`). */
export const storageKinds = ["memory", "postgres"] as const

export type StorageKind = (typeof storageKinds)[number]

/** The store of one run: its ports and the reader of its snapshots, built anew for each run. */
export interface RunStorage {
  readonly layer: Layer.Layer<Storage.StoragePorts | SnapshotReader>
  /** Work outside the run's fibers (a database's replies) that the run's time waits for. */
  readonly pendingWork?: PendingWork
  /**
   * A store that does not report its changes to the trace (as the memory store does) is traced
   * by the final snapshot, without the columns it stamps with its own clock (by table).
   */
  readonly tracedSnapshot?: { readonly ignored: Readonly<Record<string, ReadonlyArray<string>>> }
}

/**
 * The memory store, every committed change of which goes into the trace, with `plant` wrapped
 * around its ports (the snapshots read its tables underneath any plant).
 */
export const memoryStorage = (trace: Trace, plant: PlantName | undefined): RunStorage => {
  const storage = Memory.memoryStorageWith({ onChange: trace.onChange })
  const planted = plantLayer(plant).pipe(Layer.provideMerge(storage))
  return { layer: SnapshotReader.memory.pipe(Layer.provideMerge(planted)) }
}
