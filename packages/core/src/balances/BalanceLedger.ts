import { Context, type Effect } from "effect"
import type { WalletId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"

/** A wallet whose balances are due for a sync. */
export interface DueWallet {
  readonly id: WalletId
  readonly address: string
}

/** A wallet's balances as the chain reported them at one solidified block. */
export interface BalanceReading {
  readonly walletId: WalletId
  readonly usdt: bigint
  /** SUN. */
  readonly trx: bigint
  readonly atBlock: bigint
}

/** How far behind balance sync is, for the heartbeat. */
export interface BalanceBacklog {
  /** Wallets whose first sync has not completed (`balance_block` 0). */
  readonly unsynced: number
  /** Wallets a deposit marked stale that no sync at or above the deposit's block has cleared. */
  readonly stale: number
}

/**
 * Port: the balance columns of one network's wallets. Storage failures are defects.
 *
 * A deposit marks its wallet stale from the deposit's block; `record` clears the mark only with a
 * reading at or above that block, so an older reading can never hide a deposit.
 */
export class BalanceLedger extends Context.Tag("@collector/core/BalanceLedger")<
  BalanceLedger,
  {
    /**
     * Up to `limit` wallets in priority order: stale wallets whose mark is at or below
     * `solidified` (oldest mark first), then never-synced wallets, then the longest-unsynced.
     * A stale mark above `solidified` cannot be cleared by a reading yet, so it does not jump
     * the queue: re-reading it every batch until its block solidifies would starve the rest.
     */
    readonly due: (network: Network, limit: number, solidified: bigint) => Effect.Effect<ReadonlyArray<DueWallet>>
    /**
     * Writes the readings, never moving a wallet to an older block than it already has.
     * Returns how many wallets were written.
     */
    readonly record: (network: Network, readings: ReadonlyArray<BalanceReading>) => Effect.Effect<number>
    readonly backlog: (network: Network) => Effect.Effect<BalanceBacklog>
  }
>() {}
