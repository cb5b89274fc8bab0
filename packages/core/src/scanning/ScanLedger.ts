import { Context, Data, type Effect, type Option } from "effect"
import type { BlockRef, UsdtTransfer } from "../chain/ChainModel.js"
import type { TenantId, WalletId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"

/** The last block the scanner has stored, and so the one the next block must build on. */
export interface ScanPosition {
  readonly number: bigint
  readonly hash: string
}

export interface WalletMatch {
  readonly walletId: WalletId
  readonly tenantId: TenantId
  readonly address: string
  readonly customId: string
  /** The wallet's tenant's own deposit minimum on the network (base units), if it set one. */
  readonly depositMinimum: bigint | null
}

/** A USDT Transfer log to a tenant wallet, in the block it was seen in. */
export interface ObservedTransfer {
  readonly block: BlockRef
  readonly transfer: UsdtTransfer
  readonly wallet: WalletMatch
}

export interface ScannedBlock {
  readonly block: BlockRef
  /** The deposits: transfers to tenant wallets from anyone but our own sweeps for that tenant. */
  readonly transfers: ReadonlyArray<ObservedTransfer>
  /** Our own sweeps into a wallet of the tenant they swept for: no deposits, but the wallet's balance moved. */
  readonly ownSweeps: ReadonlyArray<ObservedTransfer>
  /**
   * Transfers out of one of our wallets (`wallet` is the sender's) in a transaction no sweep task
   * holds: a sweep whose record a lost database write took away, or a key used outside the service.
   */
  readonly outflows: ReadonlyArray<ObservedTransfer>
}

/** What became of an unaccounted outflow: still to be looked at, given back to its sweep task, or reported as foreign. */
export type OutflowState = "open" | "restored" | "reported"

/** An unaccounted outflow as stored: the transfer, the wallet it left, and what became of it. */
export interface StoredOutflow {
  readonly network: Network
  readonly block: BlockRef
  readonly transfer: UsdtTransfer
  readonly wallet: WalletMatch
  readonly state: OutflowState
  /** The sweep task it was given back to, when `restored`. */
  readonly taskId: string | null
}

export type OutflowResolution =
  | { readonly state: "restored"; readonly taskId: string }
  | { readonly state: "reported" }

/** A transaction one of our sweep tasks signed: the tenant it swept for, from which wallet address to which. */
export interface SweepTransaction {
  readonly txid: string
  readonly tenantId: TenantId
  readonly from: string
  readonly to: string
}

export interface ChainTip {
  readonly head: bigint
  readonly solidified: bigint
}

/** Another scanner moved the cursor first: this one's view is stale, and it wrote nothing. */
export class CursorMoved extends Data.TaggedError("CursorMoved")<{ readonly network: Network }> {}

/**
 * Port: what the scanner stores. Each write is one transaction that moves the cursor by
 * compare-and-set, so no block is ever stored or skipped twice, whatever runs beside it.
 * Storage failures are defects.
 */
export class ScanLedger extends Context.Tag("@collector/core/ScanLedger")<
  ScanLedger,
  {
    readonly cursor: (network: Network) => Effect.Effect<Option.Option<ScanPosition>>
    readonly storedBlock: (network: Network, number: bigint) => Effect.Effect<Option.Option<BlockRef>>
    /** The oldest block still stored (older ones were pruned below the solidified block). */
    readonly oldestStored: (network: Network) => Effect.Effect<Option.Option<bigint>>
    /** Tenant wallets among `addresses`: one lookup for a whole batch of blocks. */
    readonly walletsAt: (network: Network, addresses: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<WalletMatch>>
    /** Our own sweep transactions among `txids`, each with the tenant it swept for: one lookup per batch. */
    readonly sweepsAmong: (network: Network, txids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<SweepTransaction>>
    /**
     * Stores `blocks` (consecutive, after `from`) with their deposits and unaccounted outflows and
     * moves the cursor to the last; every wallet a deposit or one of our sweeps went to is marked
     * for balance sync. An outflow already stored (the same network, txid and log index, from a
     * scan the database lost the cursor of) is kept as it was.
     */
    readonly append: (
      network: Network,
      from: Option.Option<ScanPosition>,
      blocks: ReadonlyArray<ScannedBlock>,
      tip: ChainTip
    ) => Effect.Effect<void, CursorMoved>
    /** Drops the stored blocks above `to` and their transfers; the cursor goes back to `to`. */
    readonly rewind: (network: Network, from: ScanPosition, to: ScanPosition) => Effect.Effect<void, CursorMoved>
    /** Stores those of `transfers` that are missing, if their block is still stored as it was; returns how many. */
    readonly restore: (network: Network, transfers: ReadonlyArray<ObservedTransfer>) => Effect.Effect<number>
    /** Forgets blocks below `below` and the transfers in them that are already booked. */
    readonly prune: (network: Network, below: bigint) => Effect.Effect<void>
    /**
     * Forgets where the network's scan stands (cursor, stored blocks, stored transfers), so the
     * next pass starts afresh; deposits stay. For a chain that was replaced as a whole (a
     * restarted simulator), never for a live network.
     */
    readonly forget: (network: Network) => Effect.Effect<void>
    /** Up to `limit` unaccounted outflows of the network still `open`, oldest block first. */
    readonly openOutflows: (network: Network, limit: number) => Effect.Effect<ReadonlyArray<StoredOutflow>>
    /**
     * Moves one `open` outflow to `resolution`; false (nothing written) when it is not open any
     * more, so whoever closes it is the only one to act on it (a report is made once).
     */
    readonly closeOutflow: (
      network: Network,
      transfer: { readonly txid: string; readonly logIndex: number },
      resolution: OutflowResolution
    ) => Effect.Effect<boolean>
    /** Takes or renews the network's scanner lease; false while another holder's lease runs. */
    readonly claimLease: (network: Network, holder: string, ttlMillis: number) => Effect.Effect<boolean>
    readonly releaseLease: (network: Network, holder: string) => Effect.Effect<void>
    /** The first stored block at or after `time` (for back-filling new wallets). */
    readonly firstBlockSince: (network: Network, time: Date) => Effect.Effect<Option.Option<bigint>>
    /** Wallets with IDs above `afterId`: the highest such ID and the earliest creation time. */
    readonly newWallets: (
      network: Network,
      afterId: string
    ) => Effect.Effect<Option.Option<{ readonly lastId: string; readonly firstCreatedAt: Date }>>
    readonly lastWalletId: Effect.Effect<string>
  }
>() {}
