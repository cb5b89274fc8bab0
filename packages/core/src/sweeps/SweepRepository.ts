import { Context, type Effect, type Option } from "effect"
import type { WalletId } from "../kernel/Ids.js"
import type { Network } from "../kernel/Network.js"
import type { NotificationEvent } from "../notifications/NotificationEvent.js"
import type { Page } from "../kernel/Page.js"
import type { TenantScope } from "../tenants/Scope.js"
import type { WalletKey } from "../wallets/WalletKey.js"
import type { SweepOutcome } from "./SweepOutcome.js"
import type { SweepMode, SweepOrigin, SweepStatus, SweepTask, SweepTaskId } from "./SweepTask.js"

/** A task to insert: the wallet has been checked by the caller, the one-task-per-wallet rule is the store's. */
export interface SweepDraft {
  readonly walletId: WalletId
  readonly address: string
  readonly mode: SweepMode
  readonly requestedAmount: bigint | null
  /** Automation's threshold at creation; null for manual tasks. */
  readonly minimumAmount: bigint | null
  readonly destination: string
  readonly origin: SweepOrigin
  /** Snapshot of the scope's cap at creation (`max_wallet_trx_fee`). */
  readonly maxWalletTrxFee: bigint
  readonly prepareBy: Date
}

/** A task with the notification event its terminal state created, if any. */
export interface SweepView {
  readonly task: SweepTask
  readonly webhook: NotificationEvent | null
}

export interface SweepQuery {
  readonly page: number
  readonly pageSize: number
  readonly status?: SweepStatus
  readonly walletId?: WalletId
  /** Exact transaction hash. */
  readonly txid?: string
}

/**
 * Port: sweep tasks. The operations read and create them per tenant scope; the sweeper claims
 * them per network and moves each one step at a time, every step saved with compare-and-set on
 * the task's version by the worker holding the claim. Storage failures are defects.
 */
export class SweepRepository extends Context.Tag("@collector/core/SweepRepository")<
  SweepRepository,
  {
    /**
     * Inserts one task per draft, in the caller's transaction. A wallet that already has an
     * unfinished task gets none: the result holds only the tasks inserted, in draft order.
     */
    readonly insert: (scope: TenantScope, drafts: ReadonlyArray<SweepDraft>, at: Date) => Effect.Effect<ReadonlyArray<SweepTask>>
    /** ID descending. */
    readonly list: (scope: TenantScope, query: SweepQuery) => Effect.Effect<Page<SweepView>>
    readonly find: (scope: TenantScope, id: SweepTaskId) => Effect.Effect<Option.Option<SweepView>>
    /** Unfinished tasks of the scope (the dashboard's `pending_tasks`). */
    readonly unfinishedCount: (scope: TenantScope) => Effect.Effect<number>
    /** Unfinished tasks of the whole network by status (the `collector_sweeps` gauge); a status with none is absent. */
    readonly unfinishedByStatus: (network: Network) => Effect.Effect<Readonly<Partial<Record<SweepStatus, number>>>>
    /** The status of one task of the network, whatever its tenant (the reclaim pass asks whether it is finished). */
    readonly statusOf: (network: Network, id: SweepTaskId) => Effect.Effect<Option.Option<SweepStatus>>
    /**
     * Claims up to `limit` unfinished tasks of the network that are due (`nextStepAt <= now`)
     * and not claimed by a live lease, with `FOR UPDATE SKIP LOCKED`, for `worker` until `until`:
     * the first `limit` in `byClaimOrder`, returned in that order.
     */
    readonly claim: (network: Network, worker: string, now: Date, until: Date, limit: number) => Effect.Effect<ReadonlyArray<SweepTask>>
    /**
     * Claims one task of the scope, due or not, for `worker` until `until` when its status is one
     * of `statuses` and no live lease holds it (an operator acting on it); none otherwise.
     */
    readonly claimOne: (
      scope: TenantScope,
      id: SweepTaskId,
      statuses: ReadonlyArray<SweepStatus>,
      worker: string,
      now: Date,
      until: Date
    ) => Effect.Effect<Option.Option<SweepTask>>
    /**
     * Gives back every unfinished task of the network still claimed under one of `workers`, as
     * it is (due when it was, its version unchanged), and returns their IDs. For the claims of a
     * sweeper whose work was abandoned when a statement failed: it names each claim apart and
     * never reuses a name, so nothing else holds a task under one (a task saved since, or claimed
     * by another, is not touched), and a save of the abandoned work arriving later is refused.
     */
    readonly handBack: (network: Network, workers: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<SweepTaskId>>
    /**
     * Saves a non-terminal step: succeeds only while `worker` holds the claim and the stored
     * version is `task.version`; stores version + 1 and releases the claim. False when lost.
     */
    readonly save: (task: SweepTask, worker: string) => Effect.Effect<boolean>
    /**
     * Saves a terminal state in one transaction with its event and its wallet's books, as the
     * outcome says (the core decides them): the collected total and time, the balance-sync mark.
     * Same compare-and-set as `save`.
     */
    readonly finish: (outcome: SweepOutcome, worker: string) => Effect.Effect<boolean>
    /** The sealed private key of a wallet, for the Signer port alone. */
    readonly signingKey: (walletId: WalletId) => Effect.Effect<WalletKey>
  }
>() {}
