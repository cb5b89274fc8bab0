import { Context, type Effect } from "effect"
import type { ConfirmationRule } from "../settings/ConfirmationRule.js"
import type { DepositId, DepositStatus, EventId } from "../deposits/Deposit.js"
import type { TenantId, WalletId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"
import type { EventType } from "../notifications/EventTypes.js"
import type { OutboxEvent } from "../notifications/OutboxEvent.js"
import type { TenantScope } from "../tenants/Scope.js"
import type { SweepStatus, SweepTaskId } from "../sweeps/SweepTask.js"
import type { TenantStatus } from "../tenants/Tenant.js"
import type { WalletKey } from "../wallets/WalletKey.js"

export interface FixtureScope extends TenantScope {
  readonly appId: string
}

export interface FixtureWalletFields {
  readonly address?: string
  readonly customId?: string
  /** With `balanceBlock` above 0: the wallet as last synchronised. */
  readonly balanceUsdt?: bigint
  readonly balanceTrx?: bigint
  readonly balanceBlock?: bigint
  readonly createdAt?: Date
  /** Balance sync's mark: the balance may have changed from this block on. */
  readonly balanceStaleFrom?: bigint
  /** The wallet's key (sealed, or a token's label); a fixed sealed stand-in unless given. */
  readonly key?: WalletKey
}

/** The wallet columns a sweep's terminal write changes. */
export interface FixtureSweptWalletBooks {
  readonly collectedUsdt: bigint
  readonly lastCollectedAt: Date | null
  readonly balanceStaleFrom: bigint | null
}

/** A stored notification event, as the outbox wrote it. */
export interface FixtureEvent {
  readonly id: string
  readonly eventType: EventType
  readonly depositId: string | null
  readonly revision: number | null
  readonly payload: string
}

export interface FixtureWallet {
  readonly id: WalletId
  readonly address: string
  readonly customId: string
}

/** Every column of a deposit row but its wallet's; what is left out gets a plausible, unique value. */
export interface FixtureDepositFields {
  readonly status?: DepositStatus
  readonly revision?: number
  readonly source?: string
  readonly contract?: string
  readonly amount?: bigint
  readonly txid?: string
  readonly logIndex?: number
  readonly blockNumber?: bigint
  readonly blockHash?: string | null
  readonly blockTime?: Date
  readonly createdAt?: Date
  readonly confirmationType?: ConfirmationRule
  /** Left out: null when solidified, else 1. */
  readonly confirmations?: number | null
}

export interface FixtureDeposit {
  readonly id: DepositId
  readonly eventId: EventId
  readonly txid: string
}

/** A wallet's balance columns. */
export interface FixtureBalances {
  readonly usdt: bigint | null
  readonly trx: bigint | null
  readonly block: bigint
  readonly syncedAt: Date | null
  readonly staleFrom: bigint | null
}

/** A stored transfer (an observed log) as the scan ledger keeps it. */
export interface FixtureObservedLog {
  readonly txid: string
  readonly logIndex: number
  readonly blockNumber: bigint
  readonly blockHash: string
  readonly walletId: WalletId
  readonly amount: bigint
  readonly booked: boolean
}

/** The settings columns the automation scheduler reads; left out: the column's default. */
export interface FixtureAutomationSettings {
  readonly collectionAddress?: string
  readonly collectionWalletId?: WalletId | null
  readonly enabled?: boolean
  readonly threshold?: bigint
  readonly intervalMinutes?: number
  readonly maxWalletTrxFee?: bigint
  readonly maxRentalCost?: bigint
  readonly rentalAllowed?: boolean
  readonly updatedAt?: Date | null
  readonly lastRunAt?: Date | null
  readonly roundClaimedUntil?: Date | null
}

export interface FixtureAutomationRound {
  readonly lastRunAt: Date | null
  readonly roundClaimedUntil: Date | null
}

export interface FixtureSweepTaskFields {
  readonly status?: SweepStatus
  readonly destination?: string
  /** With a txid the task carries its signed transaction. */
  readonly txid?: string
}

export interface FixtureWebhook {
  readonly url: string
  readonly enabled: boolean
}

/**
 * Test-only writes for the contract suites: states the ports under test need but do not create
 * themselves, written straight into each storage (the memory tables, or SQL rows). Each
 * implementation writes the same facts; nothing here decides anything.
 */
export class StorageFixtures extends Context.Tag("@collector/core/testing/StorageFixtures")<
  StorageFixtures,
  {
    /** A new tenant (unique name) with an app on `network`, active, never expiring. */
    readonly scope: (network: Network, options?: { readonly confirmationRule?: ConfirmationRule }) => Effect.Effect<FixtureScope>
    /** A wallet of the scope; address and custom ID are made unique unless given. */
    readonly wallet: (scope: TenantScope, fields?: FixtureWalletFields) => Effect.Effect<FixtureWallet>
    /** What sweeps have collected from the wallet so far (as `SweepRepository.finish` leaves it). */
    readonly walletCollected: (wallet: WalletId, collectedUsdt: bigint, lastCollectedAt: Date | null) => Effect.Effect<void>
    /** The tenant's status and expiry, as the operator sets them. */
    readonly tenantStatus: (tenantId: TenantId, status: TenantStatus, expiresAt: Date | null) => Effect.Effect<void>
    /**
     * A deposit to the wallet as the booking stores it (ID and event ID from their sequences);
     * a confirmed one adds its amount to the scope's confirmed total, as the booking does.
     */
    readonly seedDeposit: (scope: TenantScope, wallet: FixtureWallet, fields?: FixtureDepositFields) => Effect.Effect<FixtureDeposit>
    /** What booking a deposit does to its wallet: stale from `block` on (the later block when marked twice). */
    readonly markBalanceStale: (walletId: WalletId, block: bigint) => Effect.Effect<void>
    readonly walletBalances: (walletId: WalletId) => Effect.Effect<FixtureBalances>
    /** The network's stored transfers, by txid then log index. */
    readonly observedLogs: (network: Network) => Effect.Effect<ReadonlyArray<FixtureObservedLog>>
    /** What booking a stored transfer does to it. */
    readonly markLogBooked: (network: Network, txid: string, logIndex: number) => Effect.Effect<void>
    /** Creates or changes the scope's settings row. */
    readonly automationSettings: (scope: TenantScope, fields: FixtureAutomationSettings) => Effect.Effect<void>
    readonly automationRound: (scope: TenantScope) => Effect.Effect<FixtureAutomationRound>
    /** A sweep task of the wallet (mode all, manual), in the given status. */
    readonly seedSweepTask: (scope: TenantScope, wallet: FixtureWallet, fields?: FixtureSweepTaskFields) => Effect.Effect<SweepTaskId>
    /** Stores the event through the outbox's own writer, as the state change it reports would. */
    readonly event: (event: OutboxEvent) => Effect.Effect<void>
    /** What sweeps wrote into the wallet's row: its collected total and time, its balance-sync mark. */
    readonly sweptWalletBooks: (walletId: WalletId) => Effect.Effect<FixtureSweptWalletBooks>
    /** The scope's notification events, by ID. */
    readonly scopeEvents: (scope: TenantScope) => Effect.Effect<ReadonlyArray<FixtureEvent>>
    /** Runs `effect` as one storage transaction, as a caller of a port that joins its caller's transaction does. */
    readonly transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  }
>() {}
