import { Effect } from "effect"
import type { EnergyDelegation } from "../delegation/EnergyDelegation.js"
import type { Network } from "../kernel/Network.js"
import { MemoryDatabase } from "./MemoryDatabase.js"
import * as MemoryTables from "./MemoryTables.js"

/**
 * A store's state in the memory tables' shapes (the PostgreSQL schema's columns in camelCase with
 * domain types), read all at once and never through the storage ports: what a checker outside the
 * service (the simulator's settling and invariants) reads, whichever store the service used. The
 * memory store's reading is here; PostgreSQL's is the postgres package's `PgStoreSnapshot`.
 */
export interface StoreSnapshot {
  readonly tenants: ReadonlyArray<MemoryTables.TenantRow>
  readonly apps: ReadonlyArray<MemoryTables.AppRow>
  readonly wallets: ReadonlyArray<MemoryTables.WalletRow>
  readonly tenantSettings: ReadonlyArray<MemoryTables.TenantSettingsRow>
  readonly scanCursors: ReadonlyArray<MemoryTables.ScanCursorRow>
  readonly observedLogs: ReadonlyArray<MemoryTables.ObservedLogRow>
  readonly deposits: ReadonlyArray<MemoryTables.DepositRow>
  /** Confirmed USDT per scope. */
  readonly depositTotals: ReadonlyArray<{ readonly tenantId: string; readonly network: Network; readonly confirmedUsdt: bigint }>
  readonly events: ReadonlyArray<MemoryTables.EventRow>
  readonly deliveryRounds: ReadonlyArray<MemoryTables.DeliveryRoundRow>
  readonly deliveryAttempts: ReadonlyArray<MemoryTables.DeliveryAttemptRow>
  readonly sweepTasks: ReadonlyArray<MemoryTables.SweepTaskRow>
  /** The delegation ledger: one row per task the own stake lent to. */
  readonly delegations: ReadonlyArray<EnergyDelegation>
}

/** The memory store's tables, read in one atomic operation. */
export const readMemorySnapshot: Effect.Effect<StoreSnapshot, never, MemoryDatabase> = Effect.flatMap(MemoryDatabase, (db) =>
  db.atomically((): StoreSnapshot => ({
    tenants: [...db.table(MemoryTables.tenants).values()],
    apps: [...db.table(MemoryTables.apps).values()],
    wallets: [...db.table(MemoryTables.wallets).values()],
    tenantSettings: [...db.table(MemoryTables.tenantSettings).values()],
    scanCursors: [...db.table(MemoryTables.scanCursors).values()],
    observedLogs: [...db.table(MemoryTables.observedLogs).values()],
    deposits: [...db.table(MemoryTables.deposits).values()],
    depositTotals: [...db.table(MemoryTables.depositTotals).entries()].map(([key, confirmedUsdt]) => {
      const [tenantId, network] = key.split("\u0000") as [string, Network]
      return { tenantId, network, confirmedUsdt }
    }),
    events: [...db.table(MemoryTables.events).values()],
    deliveryRounds: [...db.table(MemoryTables.deliveryRounds).values()],
    deliveryAttempts: [...db.table(MemoryTables.deliveryAttempts).values()],
    sweepTasks: [...db.table(MemoryTables.sweepTasks).values()],
    delegations: [...db.table(MemoryTables.energyDelegations).values()]
  })))
