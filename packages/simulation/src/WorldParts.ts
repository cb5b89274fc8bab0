import type { TenantClient } from "./api/TenantClient.js"
import type { Receiver } from "./Receiver.js"
import type { SimulatedNetwork } from "./SimulatedNetwork.js"
import type { Worker } from "./Worker.js"
import type { PathCounts } from "./workload/PathCounts.js"
import type { WorkloadLedger } from "./workload/WorkloadLedger.js"

/** What a run is made of; the scheduler, the workload, the faults and the invariants work on it. */
export interface WorldParts {
  readonly seed: string
  readonly networks: ReadonlyArray<SimulatedNetwork>
  readonly workers: ReadonlyArray<Worker>
  readonly receiver: Receiver
  /** What the workload did that the invariants read (collection addresses, replay comparisons). */
  readonly ledger: WorkloadLedger
  /** The API in this process (gate, handlers, their idempotency), as the tenants call it. */
  readonly api: TenantClient
  /** How often the run reached the money paths the workload and the faults aim at. */
  readonly paths: PathCounts
}
