import type { CutPlan } from "./faults/ConnectionCuts.js"
import type { PlantName } from "./Plants.js"
import type { StorageKind } from "./RunStorage.js"

export interface RunOptions {
  /** Steps of the workload before the service is left to settle. */
  readonly ticks: number
  /** A known defect planted in the store, which the invariants must catch. */
  readonly plant?: PlantName
  /** The store the run uses: memory (the default) or a fresh PostgreSQL database on `databaseServer`. */
  readonly storage?: StorageKind
  /** The administrative URL of the PostgreSQL server that holds each postgres run's database. */
  readonly databaseServer?: string
  /**
   * On PostgreSQL, which money steps lose their connection: each at its drawn rate (the
   * default), or every run of one step (`{ forced }`, for a test that hits each of its statements).
   */
  readonly connectionCuts?: CutPlan
  /** The service's own logs (info and above), off by default. */
  readonly logs?: boolean
}
