import { memoryStorageWith, type StoragePorts } from "@collector/core"
import { Layer } from "effect"
import type { PendingWork } from "./PendingWork"
import { SnapshotReader } from "./Snapshot"
import type { Trace } from "./Trace"

/** The stores a run can use (`--storage`). */
export const storageKinds = ["memory", "postgres"] as const

export type StorageKind = (typeof storageKinds)[number]

/** The store of one run: its ports and the reader of its snapshots, built anew for each run. */
export interface RunStorage {
  readonly layer: Layer.Layer<StoragePorts | SnapshotReader>
  /** Work outside the run's fibers (a database's replies) that the run's time waits for. */
  readonly pendingWork?: PendingWork
  /**
   * Whether the trace needs the final snapshot: a store that does not report its changes (as the
   * memory store does to the trace) is traced by what it holds at the end.
   */
  readonly tracesSnapshot: boolean
}

/** The memory store, every committed change of which goes into the trace. */
export const memoryStorage = (trace: Trace): RunStorage => {
  const storage = memoryStorageWith({ onChange: trace.onChange })
  return { layer: SnapshotReader.memory.pipe(Layer.provideMerge(storage)), tracesSnapshot: false }
}
