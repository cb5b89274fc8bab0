import { type Deposits, type Kernel, Memory, Notifications, type Sweeps } from "@collector/core"
import { storedTransaction } from "@collector/core/testing"
import type { CanonicalTransfer } from "../CanonicalTransfers.js"
import type { Snapshot } from "../Snapshot.js"

/*
 * Hand-built store rows and chain facts for the invariants' own tests: one tenant on nile, its
 * wallets and collection address, every field at a plain value that `over` changes.
 */

export const at = (seconds: number) => new Date(Date.UTC(2026, 5, 1) + seconds * 1000)

export const tenantId = "1" as Kernel.TenantId
export const collection = "TCollection"

export const emptySnapshot: Snapshot = {
  tenants: [],
  apps: [],
  wallets: [],
  tenantSettings: [],
  scanCursors: [],
  observedLogs: [],
  deposits: [],
  depositTotals: [],
  events: [],
  deliveryRounds: [],
  deliveryAttempts: [],
  sweepTasks: [],
  delegations: []
}

export const walletRow = (id: string, address: string, over: Partial<Memory.MemoryTables.WalletRow> = {}): Memory.MemoryTables.WalletRow => ({
  id: id as Kernel.WalletId,
  tenantId,
  network: "nile",
  address,
  customId: `w-${id}`,
  balanceUsdt: null,
  balanceTrx: null,
  balanceBlock: 0n,
  collectedUsdt: 0n,
  lastCollectedAt: null,
  createdAt: at(0),
  balanceSyncedAt: null,
  balanceStaleFrom: null,
  ...over
})

export const settingsRow = (over: Partial<Memory.MemoryTables.TenantSettingsRow> = {}): Memory.MemoryTables.TenantSettingsRow => ({
  tenantId,
  network: "nile",
  collectionAddress: collection,
  collectionWalletId: null,
  collectionUpdatedAt: at(0),
  automationEnabled: false,
  automationThreshold: 0n,
  automationIntervalMinutes: 60,
  maxWalletTrxFee: 0n,
  maxRentalCost: 0n,
  rentalAllowed: true,
  automationUpdatedAt: null,
  webhookUrl: "",
  webhookEnabled: false,
  webhookUpdatedAt: null,
  automationLastRunAt: null,
  automationRoundClaimedUntil: null,
  ...over
})

/** A task that swept `amount` from `wallet` to the collection address with transaction `txid`. */
export const taskRow = (
  id: string,
  wallet: Memory.MemoryTables.WalletRow,
  amount: bigint,
  txid: string | null,
  over: Partial<Memory.MemoryTables.SweepTaskRow> = {}
): Memory.MemoryTables.SweepTaskRow => ({
  id: id as Sweeps.SweepTaskId,
  tenantId,
  network: "nile",
  walletId: wallet.id,
  address: wallet.address,
  mode: "all",
  requestedAmount: null,
  minimumAmount: null,
  amount,
  destination: collection,
  origin: "manual",
  status: "succeeded",
  stage: "ready",
  reason: "",
  transaction: txid === null ? null : storedTransaction(txid),
  actualFee: 0n,
  actualBandwidthFee: null,
  feeWarning: null,
  energyPath: null,
  feeReason: null,
  feeSource: "resources",
  preparedEnergy: null,
  estimatedWalletTrxFee: null,
  maxWalletTrxFee: null,
  rental: null,
  createdAt: at(0),
  updatedAt: at(10),
  nextStepAt: at(10),
  prepareBy: at(3600),
  version: 5,
  claimedBy: null,
  claimedUntil: null,
  ...over
})

export const depositRow = (id: string, revision: number, over: Partial<Memory.MemoryTables.DepositRow> = {}): Memory.MemoryTables.DepositRow => ({
  id: id as Deposits.DepositId,
  eventId: `${id}0${revision}` as Deposits.EventId,
  tenantId,
  network: "nile",
  status: "confirmed",
  walletId: "1" as Kernel.WalletId,
  customId: "w-1",
  address: "TWallet1",
  source: "TStranger",
  contract: "TUsdt",
  amount: 5_000_000n,
  txid: `tx-${id}`,
  logIndex: 0,
  blockNumber: 100n,
  blockHash: "b100",
  blockTime: at(0),
  createdAt: at(3),
  revision,
  confirmationType: "block_1",
  confirmations: 1,
  updatedAt: at(3),
  ...over
})

/** The event a deposit revision stores, delivered. */
export const depositEventRow = (deposit: Memory.MemoryTables.DepositRow, over: Partial<Memory.MemoryTables.EventRow> = {}): Memory.MemoryTables.EventRow => {
  const event = Notifications.depositEvent(deposit, deposit.updatedAt)
  return {
    id: event.id,
    tenantId: event.tenantId,
    network: event.network,
    eventType: event.eventType,
    depositId: deposit.id,
    revision: deposit.revision,
    payload: event.payload,
    status: "delivered",
    attempts: 1,
    currentRound: 1,
    nextAttempt: null,
    deadlineAt: event.deadlineAt,
    lastError: "",
    createdAt: event.createdAt,
    deliveredAt: at(20),
    roundUrl: "https://hooks.simulated.test/hooks",
    roundStartedAt: at(10),
    claimedBy: null,
    claimedUntil: null,
    ...over
  }
}

export const transfer = (txid: string, from: string, to: string, amount: bigint, blockNumber = 100n): CanonicalTransfer => ({
  txid,
  logIndex: 0,
  blockNumber,
  blockHash: `b${blockNumber}`,
  from,
  to,
  amount,
  contract: "TUsdt",
  blockTime: at(0).getTime()
})
