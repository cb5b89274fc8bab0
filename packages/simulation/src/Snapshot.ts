import { type EnergyDelegation, MemoryDatabase, MemoryTables, type Network } from "@collector/core"
import { Context, Effect, Layer } from "effect"

/**
 * The store's state as the settling and the invariants read it, in the memory tables' shapes
 * (the PostgreSQL schema's columns), whichever store the run used: read all at once, after the
 * passes of a round have ended, never through the ports under test.
 */
export interface Snapshot {
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

export class SnapshotReader extends Context.Tag("@collector/simulation/SnapshotReader")<SnapshotReader, { readonly read: Effect.Effect<Snapshot> }>() {
  /** The memory store's tables, read in one atomic operation. */
  static readonly memory = Layer.effect(
    SnapshotReader,
    Effect.map(MemoryDatabase, (db) => ({
      read: db.atomically((): Snapshot => ({
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
      }))
    }))
  )
}
