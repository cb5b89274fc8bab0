import { Context, type Effect } from "effect"
import type { TenantId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"
import type { TenantScope } from "../tenants/Scope.js"
import type { SweepTaskId } from "../sweeps/SweepTask.js"
import type { FeeEntry, FeeTotals } from "./FeeEntry.js"

/** A finished task the ledger has no entry for yet. */
export interface UnbookedTask {
  readonly tenantId: TenantId
  readonly network: Network
  readonly taskId: SweepTaskId
}

/** A period of block times: from `since` (inclusive) to `until` (exclusive, open when absent). */
export interface FeePeriod {
  readonly since: Date
  readonly until?: Date
}

/**
 * Port: the fee ledger, one entry per finished sweep task whose transaction is on chain. The
 * figures are the core's (`FeeSplit.ts`); the ledger stores them once and sums them. Storage
 * failures are defects.
 */
export class FeeLedger extends Context.Tag("@collector/core/FeeLedger")<
  FeeLedger,
  {
    /** Stores the entry unless the task has one (the first wins): true when this call stored it. */
    readonly record: (entry: FeeEntry) => Effect.Effect<boolean>
    /**
     * Up to `limit` tasks of the network, by ID and after the task `after` when given, that are
     * `succeeded` or `failed` with a fee settled from a receipt (`actualBandwidthFee` set) and
     * have no entry.
     */
    readonly unbooked: (network: Network, limit: number, after?: SweepTaskId) => Effect.Effect<ReadonlyArray<UnbookedTask>>
    /** Sums of the scope's entries whose block time falls in the period. */
    readonly totals: (scope: TenantScope, period: FeePeriod) => Effect.Effect<FeeTotals>
    /** Sums of every tenant's entries on the network whose block time falls in the period (the operator's view). */
    readonly networkTotals: (network: Network, period: FeePeriod) => Effect.Effect<FeeTotals>
    /** The scope's entries in the period, newest block first, up to `limit`. */
    readonly list: (scope: TenantScope, period: FeePeriod, limit: number) => Effect.Effect<ReadonlyArray<FeeEntry>>
  }
>() {}
