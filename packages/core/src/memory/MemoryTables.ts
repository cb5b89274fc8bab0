import type { ConfirmationRule } from "../settings/ConfirmationRule.js"
import type { EnergyDelegation } from "../delegation/EnergyDelegation.js"
import type { StoredResourceAccount } from "../delegation/ResourceAccounts.js"
import type { Deposit } from "../deposits/Deposit.js"
import type { FeeEntry } from "../fees/FeeEntry.js"
import type { ComponentReport } from "../engine/ComponentStatus.js"
import type { TenantId, WalletId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"
import type { DeliveryOutcome } from "../notifications/DeliveryRecords.js"
import type { DeliveryStatus, EventType } from "../notifications/EventTypes.js"
import type { AuditEntry } from "../operators/OperatorAuditLog.js"
import type { OperatorCredential } from "../operators/OperatorCredential.js"
import type { Sealed } from "../secrets/SecretBox.js"
import type { PendingTransfer } from "../scanning/PendingTransfer.js"
import type { OutflowState } from "../scanning/ScanLedger.js"
import type { ResealProgress } from "../secrets/SealedValues.js"
import type { WalletKey } from "../wallets/WalletKey.js"
import type { SweepTask } from "../sweeps/SweepTask.js"
import type { TenantStatus } from "../tenants/Tenant.js"
import { tableDef } from "./MemoryDatabase.js"

/*
 * The memory database's tables. They follow the PostgreSQL schema (packages/postgres/src/
 * migrations) column for column, in camelCase with domain types, so that a memory adapter and its
 * PostgreSQL twin answer from the same facts. Composite keys are joined with `keyOf`.
 * Money, block numbers and IDs are bigint or canonical decimal text, never JS numbers.
 */

/** A composite key: the parts joined by a separator no part can contain. */
export const keyOf = (...parts: ReadonlyArray<string | number | bigint>): string => parts.join("\u0000")

export interface TenantRow {
  readonly id: TenantId
  readonly name: string
  readonly status: TenantStatus
  readonly expiresAt: Date | null
  readonly createdAt: Date
  readonly updatedAt: Date
}
export const tenants = tableDef<TenantId, TenantRow>("tenants")

export interface AppRow {
  readonly appId: string
  readonly tenantId: TenantId
  readonly network: Network
  readonly secret: Sealed
  readonly webhookKey: Sealed
  readonly confirmationRule: ConfirmationRule
  readonly depositMinimum: bigint | null
  readonly createdAt: Date
  readonly secretRotatedAt: Date
}
/** By app ID; one per (tenant, network). */
export const apps = tableDef<string, AppRow>("apps")

export interface AccessTokenRow {
  readonly tokenHash: Uint8Array
  readonly appId: string
  readonly expiresAt: Date
  readonly createdAt: Date
}
/** By the token hash in hex. */
export const accessTokens = tableDef<string, AccessTokenRow>("access_tokens")

export interface IdempotencyRow {
  readonly tenantId: TenantId
  readonly network: Network
  readonly operation: string
  readonly requestId: string
  readonly paramsDigest: string
  readonly outcome: "running" | "Succeeded" | "Rejected"
  readonly response: string | null
  readonly createdAt: Date
}
/** By keyOf(tenantId, network, operation, requestId). */
export const idempotencyRecords = tableDef<string, IdempotencyRow>("idempotency_records")

export interface WalletRow {
  readonly id: WalletId
  readonly tenantId: TenantId
  readonly network: Network
  readonly address: string
  readonly customId: string
  /** Null until the first balance sync; then `balanceBlock` > 0. */
  readonly balanceUsdt: bigint | null
  readonly balanceTrx: bigint | null
  readonly balanceBlock: bigint
  readonly collectedUsdt: bigint
  readonly lastCollectedAt: Date | null
  readonly createdAt: Date
  readonly balanceSyncedAt: Date | null
  /** The wallet's balance may have changed from this block on; null when in sync. */
  readonly balanceStaleFrom: bigint | null
}
/** Unique: (tenantId, network, customId) and (network, address). */
export const wallets = tableDef<WalletId, WalletRow>("wallets")

/** By wallet ID: the wallet's private key, sealed, or the label of its key in a token. */
export const walletKeys = tableDef<WalletId, WalletKey>("wallet_keys")

export interface ResourceAccountRow {
  /** From the `resourceAccount` sequence: the row's place in a walk over sealed values. */
  readonly rowId: string
  readonly account: StoredResourceAccount
}
/** By place (network and tenant, `keyOf`): at most one account each. */
export const resourceAccounts = tableDef<string, ResourceAccountRow>("resource_accounts")

export interface TenantSettingsRow {
  readonly tenantId: TenantId
  readonly network: Network
  readonly collectionAddress: string
  readonly collectionWalletId: WalletId | null
  readonly collectionUpdatedAt: Date | null
  readonly automationEnabled: boolean
  readonly automationThreshold: bigint
  readonly automationIntervalMinutes: number
  readonly maxWalletTrxFee: bigint
  readonly maxRentalCost: bigint
  readonly rentalAllowed: boolean
  readonly automationUpdatedAt: Date | null
  readonly webhookUrl: string
  readonly webhookEnabled: boolean
  readonly webhookUpdatedAt: Date | null
  readonly automationLastRunAt: Date | null
  readonly automationRoundClaimedUntil: Date | null
}
/** By keyOf(tenantId, network). */
export const tenantSettings = tableDef<string, TenantSettingsRow>("tenant_settings")

export interface ScanCursorRow {
  readonly network: Network
  readonly blockNumber: bigint
  readonly blockHash: string
  readonly headNumber: bigint
  readonly solidifiedNumber: bigint
  readonly leaseHolder: string
  readonly leaseExpiresAt: Date | null
  readonly updatedAt: Date
}
export const scanCursors = tableDef<Network, ScanCursorRow>("scan_cursors")

export interface ScannedBlockRow {
  readonly network: Network
  readonly number: bigint
  readonly hash: string
  readonly parentHash: string
  readonly blockTime: Date
}
/** By keyOf(network, number). */
export const scannedBlocks = tableDef<string, ScannedBlockRow>("scanned_blocks")

/** A wallet's transfer as the scanner stored it: a pending transfer, without the rule its tenant has now. */
export interface ObservedLogRow extends Omit<PendingTransfer, "rule"> {
  readonly booked: boolean
}
/** By keyOf(network, txid, logIndex). */
export const observedLogs = tableDef<string, ObservedLogRow>("observed_logs")

export interface OutflowRow {
  readonly network: Network
  readonly txid: string
  readonly logIndex: number
  readonly blockNumber: bigint
  readonly blockHash: string
  readonly blockTime: Date
  readonly tenantId: TenantId
  readonly walletId: WalletId
  readonly customId: string
  /** The wallet's address: where the USDT left from. */
  readonly address: string
  readonly destination: string
  readonly contract: string
  readonly amount: bigint
  readonly state: OutflowState
  readonly taskId: string | null
}
/** Unaccounted outflows, by keyOf(network, txid, logIndex). */
export const unaccountedOutflows = tableDef<string, OutflowRow>("unaccounted_outflows")

export interface DepositRow extends Deposit {
  readonly updatedAt: Date
}
/** By deposit ID; unique (network, txid, logIndex). */
export const deposits = tableDef<string, DepositRow>("deposits")

/** Confirmed USDT per scope, by keyOf(tenantId, network). */
export const depositTotals = tableDef<string, bigint>("deposit_totals")

export interface EventRow {
  readonly id: string
  readonly tenantId: TenantId
  readonly network: Network
  readonly eventType: EventType
  readonly depositId: string | null
  readonly revision: number | null
  readonly payload: string
  readonly status: DeliveryStatus
  readonly attempts: number
  readonly currentRound: number
  readonly nextAttempt: Date | null
  readonly deadlineAt: Date
  readonly lastError: string
  readonly createdAt: Date
  readonly deliveredAt: Date | null
  /** Null: the round has not started; '' with the round ended at once: no usable configuration. */
  readonly roundUrl: string | null
  readonly roundStartedAt: Date | null
  readonly claimedBy: string | null
  readonly claimedUntil: Date | null
}
/** By event ID (the shared `taskEvent` sequence); unique (depositId, revision). */
export const events = tableDef<string, EventRow>("events")

export interface DeliveryRoundRow {
  readonly id: string
  readonly eventId: string
  readonly round: number
  readonly url: string
  readonly startedAt: Date
  readonly deadlineAt: Date
  readonly endedAt: Date | null
  readonly outcome: DeliveryOutcome | null
  readonly reason: string
}
/** By keyOf(eventId, round). */
export const deliveryRounds = tableDef<string, DeliveryRoundRow>("delivery_rounds")

export interface DeliveryAttemptRow {
  readonly id: string
  readonly eventId: string
  readonly round: number
  readonly attempt: number
  readonly url: string
  readonly startedAt: Date
  /** When the request went out; null while it surely has not. */
  readonly sentAt: Date | null
  readonly endedAt: Date | null
  readonly durationMs: number | null
  readonly httpStatus: number | null
  readonly responseExcerpt: string
  readonly error: string
  readonly outcome: DeliveryOutcome | null
}
/** By keyOf(eventId, round, attempt). */
export const deliveryAttempts = tableDef<string, DeliveryAttemptRow>("delivery_attempts")

/** By keyOf(component, network). */
export const workerStatus = tableDef<string, ComponentReport>("worker_status")

export interface SweepTaskRow extends SweepTask {
  readonly claimedBy: string | null
  readonly claimedUntil: Date | null
}
/** By task ID (the shared `taskEvent` sequence); one unfinished task per wallet. */
export const sweepTasks = tableDef<string, SweepTaskRow>("sweep_tasks")

/** By "1": the known value sealed at first start (`master_key_check`). */
export const masterKeyCheck = tableDef<"1", Sealed>("master_key_check")

/** By "1": how far the re-seal under a master key has walked (`reseal_progress`). */
export const resealProgress = tableDef<"1", ResealProgress>("reseal_progress")

/** By task ID: one delegation of the own stake per sweep task (`energy_delegations`). */
export const energyDelegations = tableDef<string, EnergyDelegation>("energy_delegations")
export interface OperatorCredentialRow extends OperatorCredential {
  readonly secretHash: Uint8Array
}
/** By credential ID (`operator_credentials`); the secret hash is unique. */
export const operatorCredentials = tableDef<string, OperatorCredentialRow>("operator_credentials")

/** By entry ID (`operator_audit`). */
export const operatorAudit = tableDef<string, AuditEntry>("operator_audit")

/** By task ID: one fee ledger entry per finished sweep task (`fee_ledger`). */
export const feeLedger = tableDef<string, FeeEntry>("fee_ledger")
