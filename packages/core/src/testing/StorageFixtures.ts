import { Context, type Effect } from "effect"
import type { ConfirmationRule } from "../ConfirmationRule"
import type { WalletId } from "../Ids"
import type { Network } from "../Network"
import type { TenantScope } from "../Scope"
import type { TerminalSweepStatus } from "../sweeps/SweepTask"

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
    /** What sweeps have collected from the wallet so far (as `SweepRepository.finish` leaves it). */
    readonly walletCollected: (wallet: WalletId, collectedUsdt: bigint, lastCollectedAt: Date | null) => Effect.Effect<void>
    /**
     * A manual sweep task of the whole balance of the wallet to `TFixtureDestination`, unfinished
     * (`pending`) or ended; a second unfinished task of one wallet is a defect.
     */
    readonly walletSweepTask: (scope: TenantScope, wallet: FixtureWallet, status: "pending" | TerminalSweepStatus) => Effect.Effect<void>
  }
>() {}
