import { Context, type Effect } from "effect"
import type { ConfirmationRule } from "../ConfirmationRule"
import type { WalletId } from "../Ids"
import type { Network } from "../Network"
import type { EventType } from "../notifications/EventTypes"
import type { OutboxEvent } from "../notifications/OutboxEvent"
import type { TenantScope } from "../Scope"
import type { Sealed } from "../SecretBox"

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
  /** The wallet's private key as sealed; a fixed stand-in unless given. */
  readonly sealedKey?: Sealed
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
    /** What sweeps wrote into the wallet's row: its collected total and time, its balance-sync mark. */
    readonly sweptWalletBooks: (walletId: WalletId) => Effect.Effect<FixtureSweptWalletBooks>
    /** An event stored as the outbox stores it, outside any state change (to occupy an ID). */
    readonly outboxEvent: (event: OutboxEvent) => Effect.Effect<void>
    /** The scope's notification events, by ID. */
    readonly scopeEvents: (scope: TenantScope) => Effect.Effect<ReadonlyArray<FixtureEvent>>
    /** Runs `effect` as one storage transaction, as a caller of a port that joins its caller's transaction does. */
    readonly transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  }
>() {}
