import type { EventId } from "../deposits/Deposit.js"
import type { TenantId, WalletId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"
import type { EnergyRental } from "../energy/EnergyRental.js"
import type { EnergyPath } from "./EnergyWaterfall.js"

/** A sweep task ID; it is also the ID of the task's terminal event (one shared sequence). */
export type SweepTaskId = string & { readonly SweepTaskId: unique symbol }

export const asEventId = (id: SweepTaskId): EventId => id as string as EventId

export type SweepStatus = "pending" | "ready" | "signed" | "broadcast" | "unknown" | "succeeded" | "failed" | "cancelled"
export type TerminalSweepStatus = "succeeded" | "failed" | "cancelled"
export const terminalStatuses: ReadonlyArray<TerminalSweepStatus> = ["succeeded", "failed", "cancelled"]
export type UnfinishedSweepStatus = Exclude<SweepStatus, TerminalSweepStatus>
export const unfinishedStatuses: ReadonlyArray<UnfinishedSweepStatus> = ["pending", "ready", "signed", "broadcast", "unknown"]
export const isTerminal = (status: SweepStatus): status is TerminalSweepStatus => (terminalStatuses as ReadonlyArray<string>).includes(status)

/** Sub-stages of `pending`; `ready` once the resources are in place. */
export type PreparationStage = "queued" | "waiting_bandwidth" | "renting" | "waiting_energy" | "ready"
export type FeeSource = "resources" | "wallet_trx" | "rental"
export type SweepMode = "all" | "fixed"
/** Who asked for the task: a tenant's create operation or the automation policy. */
export type SweepOrigin = "manual" | "automation"

/** The signed transaction exactly as stored before its first broadcast; never replaced. */
export interface StoredTransaction {
  readonly txid: string
  readonly rawDataHex: string
  readonly signature: string
  readonly expiration: Date
  readonly feeLimit: bigint
}

export interface SweepTask {
  readonly id: SweepTaskId
  readonly tenantId: TenantId
  readonly network: Network
  readonly walletId: WalletId
  /** The wallet's address: where the USDT leaves from. */
  readonly address: string
  readonly mode: SweepMode
  /** Null for `all`. */
  readonly requestedAmount: bigint | null
  /** An automation task's threshold: preparation below it cancels instead of sweeping dust. Null for manual tasks. */
  readonly minimumAmount: bigint | null
  /** Fixed at preparation; 0 before. */
  readonly amount: bigint
  /** The collection address stored at creation. */
  readonly destination: string
  readonly origin: SweepOrigin
  readonly status: SweepStatus
  readonly stage: PreparationStage
  /** Empty when none. */
  readonly reason: string
  readonly transaction: StoredTransaction | null
  /** SUN; 0 until settled. */
  readonly actualFee: bigint
  readonly actualBandwidthFee: bigint | null
  readonly feeWarning: string | null
  readonly feeSource: FeeSource | null
  readonly preparedEnergy: bigint | null
  readonly estimatedWalletTrxFee: bigint | null
  readonly maxWalletTrxFee: bigint | null
  readonly rental: EnergyRental | null
  /** How the transfer's energy is paid (the waterfall's choice at preparation); null before. */
  readonly energyPath: EnergyPath | null
  /** Why that path was chosen, as the tenant reads it; null before preparation. */
  readonly feeReason: string | null
  readonly createdAt: Date
  readonly updatedAt: Date
  /** When the sweeper should look at the task next. */
  readonly nextStepAt: Date
  /** Preparation gives up (cancelled) after this. */
  readonly prepareBy: Date
  /** Optimistic version: every saved step increments it. */
  readonly version: number
}
