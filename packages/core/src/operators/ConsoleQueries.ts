import { Context, type Effect, type Option } from "effect"
import type { ConfirmationRule } from "../settings/ConfirmationRule.js"
import type { Network } from "../kernel/Network.js"
import type { DeliveryStatus, EventType } from "../notifications/EventTypes.js"
import type { SweepStatus } from "../sweeps/SweepTask.js"
import type { TenantStatus } from "../tenants/Tenant.js"

export interface ConsoleScanCursor {
  readonly scanned: bigint
  readonly head: bigint
  readonly solidified: bigint
  readonly updatedAt: Date
}

export interface DepositTally {
  readonly count: number
  readonly usdt: bigint
}

/** What the console's overview shows of one network. Counts that could grow without bound stop at `countLimit`. */
export interface NetworkActivity {
  readonly position: Option.Option<ConsoleScanCursor>
  readonly depositsSinceHour: DepositTally
  readonly depositsSinceDay: DepositTally
  /** Events waiting for a delivery (pending or being delivered), at most `countLimit`. */
  readonly webhookBacklog: number
  /** Unfinished sweeps by status, and those ended since the day's start, each at most `countLimit`. */
  readonly sweepsByStatus: ReadonlyArray<{ readonly status: SweepStatus; readonly count: number }>
}

export interface TenantOverview {
  readonly tenantId: string
  readonly name: string
  readonly status: TenantStatus
  readonly network: Network
  readonly walletCount: number
  readonly balanceUsdt: bigint
  readonly collectionAddress: string
  readonly confirmationRule: ConfirmationRule
  readonly automationEnabled: boolean
  readonly automationThreshold: bigint | null
  readonly webhookUrl: string
  readonly webhookEnabled: boolean
  /** Events of the last day that reached the end of their delivery: delivered, or failed. */
  readonly deliveredSinceDay: number
  readonly failedSinceDay: number
}

export interface TroubledDelivery {
  readonly eventId: string
  readonly tenantId: string
  readonly network: Network
  readonly eventType: EventType
  readonly status: DeliveryStatus
  readonly attempts: number
  readonly round: number
  readonly lastHttpStatus: number | null
  readonly lastError: string
  readonly nextAttempt: Date | null
  readonly createdAt: Date
}

export interface SweepAttention {
  readonly id: string
  readonly tenantId: string
  readonly network: Network
  readonly address: string
  readonly status: SweepStatus
  readonly stage: string
  readonly reason: string
  readonly amount: bigint
  readonly updatedAt: Date
}

export interface FoundWallet {
  readonly walletId: string
  readonly tenantId: string
  readonly network: Network
  readonly address: string
  readonly customId: string
  readonly balanceUsdt: bigint | null
}

export interface FoundTransaction {
  readonly kind: "deposit" | "sweep"
  readonly id: string
  readonly tenantId: string
  readonly network: Network
  readonly status: string
  readonly address: string
  readonly amount: bigint
}

/**
 * Port: what the operator's console reads across every tenant, each on an index so that a page
 * stays fast at a million wallets. Read-only: the console's actions go through the domain services.
 */
export class ConsoleQueries extends Context.Tag("@collector/core/ConsoleQueries")<
  ConsoleQueries,
  {
    readonly networkActivity: (network: Network, since: { readonly hour: Date; readonly day: Date }, countLimit: number) => Effect.Effect<NetworkActivity>
    /** Each tenant's scopes (live tenants, by tenant ID then network), at most `limit`. */
    readonly tenants: (since: Date, limit: number) => Effect.Effect<ReadonlyArray<TenantOverview>>
    /** Events whose delivery failed, or is being retried after a failed attempt, newest first. */
    readonly troubledDeliveries: (limit: number) => Effect.Effect<ReadonlyArray<TroubledDelivery>>
    /** Sweeps that have not succeeded (unfinished, failed or cancelled), newest first. */
    readonly sweepsNotSucceeded: (limit: number) => Effect.Effect<ReadonlyArray<SweepAttention>>
    /** Wallets with exactly this address, on any network. */
    readonly findWallets: (address: string) => Effect.Effect<ReadonlyArray<FoundWallet>>
    /** Deposits and sweeps with exactly this transaction ID. */
    readonly findTransaction: (txid: string) => Effect.Effect<ReadonlyArray<FoundTransaction>>
  }
>() {}
