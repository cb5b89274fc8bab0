import { Effect, Layer, Option } from "effect"
import { compareIds } from "../kernel/Int64Id.js"
import type { TenantScope } from "../tenants/Scope.js"
import * as RowRule from "../kernel/RowRule.js"
import { byClaimOrder } from "./ClaimOrder.js"
import { sweepClaimable, sweepHeldBy, sweepUnclaimed } from "./SweepClaimable.js"
import { queuedTask } from "./QueuedTask.js"
import { type SweepQuery, SweepRepository, type SweepView } from "./SweepRepository.js"
import { isTerminal, type SweepStatus, type SweepTask, type SweepTaskId } from "./SweepTask.js"
import { localKey } from "../wallets/WalletKey.js"
import { MemoryDatabase } from "../memory/MemoryDatabase.js"
import { notificationEventOf } from "../memory/NotificationEventOf.js"
import { appendEvents } from "../memory/MemoryOutbox.js"
import { events, type SweepTaskRow, sweepTasks, walletKeys, wallets } from "../memory/MemoryTables.js"
import { checkSweepTask, guardSweepTaskUpdate } from "./SweepTaskGuard.js"

const toTask = ({ claimedBy: _, claimedUntil: __, ...task }: SweepTaskRow): SweepTask => task

const inScope = (scope: TenantScope) => (row: { readonly tenantId: string; readonly network: string }) =>
  row.tenantId === scope.tenantId && row.network === scope.network

const matches = (query: SweepQuery) => (row: SweepTaskRow) =>
  (query.status === undefined || row.status === query.status) &&
  (query.walletId === undefined || row.walletId === query.walletId) &&
  // As the column: a task without a transaction has the txid ''.
  (query.txid === undefined || (row.transaction?.txid ?? "") === query.txid)

/**
 * The columns a step may change; what the task was created for, the claim and the version are
 * the statements' own, so a task passed in with other request fields changes none of them.
 */
const stepped = (row: SweepTaskRow, task: SweepTask): SweepTaskRow => ({
  ...row,
  amount: task.amount,
  status: task.status,
  stage: task.stage,
  reason: task.reason,
  transaction: task.transaction,
  actualFee: task.actualFee,
  actualBandwidthFee: task.actualBandwidthFee,
  feeWarning: task.feeWarning,
  energyPath: task.energyPath,
  feeReason: task.feeReason,
  feeSource: task.feeSource,
  preparedEnergy: task.preparedEnergy,
  estimatedWalletTrxFee: task.estimatedWalletTrxFee,
  maxWalletTrxFee: task.maxWalletTrxFee,
  rental: task.rental,
  updatedAt: task.updatedAt,
  nextStepAt: task.nextStepAt,
  prepareBy: task.prepareBy,
  version: row.version + 1,
  claimedBy: null,
  claimedUntil: null
})

const later = (a: Date | null, b: Date) => (a !== null && a.getTime() > b.getTime() ? a : b)

export const make = Effect.gen(function*() {
  const db = yield* MemoryDatabase
  const tasks = db.table(sweepTasks)
  const outbox = db.table(events)
  const walletRows = db.table(wallets)

  const unfinishedOf = (walletId: string) => tasks.find((row) => row.walletId === walletId && !isTerminal(row.status))

  /** Every write of a row: the table's checks, its unique keys, and on an update its trigger. */
  const write = (next: SweepTaskRow) => {
    const old = tasks.get(next.id)
    if (old !== undefined) guardSweepTaskUpdate(old, next)
    checkSweepTask(next)
    if (!isTerminal(next.status)) {
      const other = unfinishedOf(next.walletId)
      if (other !== undefined && other.id !== next.id) throw new Error(`sweep_tasks: wallet ${next.walletId} already has unfinished task ${other.id}`)
    }
    const orderId = next.rental?.orderId
    if (orderId !== undefined && tasks.find((row) => row.id !== next.id && row.rental?.orderId === orderId) !== undefined) {
      throw new Error(`sweep_tasks: rental order ${orderId} belongs to another task`)
    }
    tasks.put(next.id, next)
  }

  /** The compare-and-set of every step: the stored version is the task's and `worker` holds the claim. */
  const casUpdate = (task: SweepTask, worker: string): SweepTaskRow | null => {
    const row = tasks.get(task.id)
    if (row === undefined || !RowRule.holds(sweepHeldBy, row, { version: task.version, holder: worker })) return null
    const next = stepped(row, task)
    write(next)
    return next
  }

  /** Only a terminal task has an event, written with its terminal state: read after the task, it is there. */
  const withWebhook = (scope: TenantScope, task: SweepTask): SweepView => {
    const event = isTerminal(task.status) ? outbox.get(task.id) : undefined
    return { task, webhook: event !== undefined && inScope(scope)(event) ? notificationEventOf(event) : null }
  }

  return SweepRepository.of({
    // Drafts of wallets outside the scope (or with another address) get no task, nor does a
    // wallet with an unfinished task, nor the second draft of a wallet repeated in the batch.
    insert: (scope, drafts, at) =>
      db.atomically(() =>
        drafts.flatMap((draft): Array<SweepTask> => {
          const wallet = walletRows.get(draft.walletId)
          if (wallet === undefined || !inScope(scope)(wallet) || wallet.address !== draft.address) return []
          if (unfinishedOf(wallet.id) !== undefined) return []
          const row: SweepTaskRow = { ...queuedTask(db.nextId("taskEvent") as SweepTaskId, scope, draft, at), claimedBy: null, claimedUntil: null }
          write(row)
          return [toTask(row)]
        })
      ),

    list: (scope, query) =>
      db.atomically(() => {
        const found = tasks.filter((row) => inScope(scope)(row) && matches(query)(row)).sort((a, b) => compareIds(b.id, a.id))
        const start = (query.page - 1) * query.pageSize
        return { items: found.slice(start, start + query.pageSize).map((row) => withWebhook(scope, toTask(row))), total: found.length }
      }),

    find: (scope, id) =>
      db.atomically(() => {
        const row = tasks.get(id)
        return row === undefined || !inScope(scope)(row) ? Option.none() : Option.some(withWebhook(scope, toTask(row)))
      }),

    unfinishedCount: (scope) => db.atomically(() => tasks.filter((row) => inScope(scope)(row) && !isTerminal(row.status)).length),

    statusOf: (network, id) =>
      db.atomically(() => {
        const row = tasks.get(id)
        return row !== undefined && row.network === network ? Option.some(row.status) : Option.none()
      }),

    unfinishedByStatus: (network) =>
      db.atomically(() => {
        const counts: Partial<Record<SweepStatus, number>> = {}
        for (const row of tasks.filter((row) => row.network === network && !isTerminal(row.status))) counts[row.status] = (counts[row.status] ?? 0) + 1
        return counts
      }),

    claim: (network, worker, now, until, limit) =>
      db.atomically(() =>
        tasks.filter((row) => row.network === network && RowRule.holds(sweepClaimable, row, { now }))
          .map(toTask)
          .sort(byClaimOrder)
          .slice(0, Math.max(limit, 0))
          .map((task) => {
            write({ ...task, claimedBy: worker, claimedUntil: until })
            return task
          })
      ),

    claimOne: (scope, id, statuses, worker, now, until) =>
      db.atomically(() => {
        const row = tasks.get(id)
        if (row === undefined || !inScope(scope)(row) || !statuses.includes(row.status)) return Option.none()
        if (!RowRule.holds(sweepUnclaimed, row, { now })) return Option.none()
        write({ ...row, claimedBy: worker, claimedUntil: until })
        return Option.some(toTask(row))
      }),

    handBack: (network, workers) =>
      db.atomically(() =>
        tasks.filter((row) => row.network === network && !isTerminal(row.status) && row.claimedBy !== null && workers.includes(row.claimedBy))
          .map((row) => {
            write({ ...row, claimedBy: null, claimedUntil: null })
            return row.id
          })
      ),

    save: (task, worker) =>
      isTerminal(task.status)
        ? Effect.dieMessage(`sweep task ${task.id}: the terminal status ${task.status} is written by finish, not save`)
        : db.atomically(() => casUpdate(task, worker) !== null),

    // The task's terminal state, its event and the wallet's books change together or not at all;
    // the outcome says what changes (the core decided it), this only writes it.
    finish: (outcome, worker) =>
      isTerminal(outcome.task.status)
        ? db.atomically(() => {
          const row = casUpdate(outcome.task, worker)
          if (row === null) return false
          appendEvents(outbox, [outcome.event])
          const collected = outcome.collected
          if (collected !== null) {
            walletRows.update(row.walletId, (wallet) => ({
              ...wallet,
              collectedUsdt: wallet.collectedUsdt + collected.amount,
              lastCollectedAt: later(wallet.lastCollectedAt, collected.at)
            }))
          }
          if (outcome.balanceChanged) {
            walletRows.update(row.walletId, (wallet) => {
              const from = wallet.balanceBlock + 1n
              return { ...wallet, balanceStaleFrom: wallet.balanceStaleFrom !== null && wallet.balanceStaleFrom > from ? wallet.balanceStaleFrom : from }
            })
          }
          return true
        })
        : Effect.dieMessage(`sweep task ${outcome.task.id}: finish needs a terminal status, not ${outcome.task.status}`),

    signingKey: (walletId) =>
      Effect.flatMap(db.atomically(() => db.table(walletKeys).get(walletId)), (key) =>
        key === undefined
          ? Effect.dieMessage(`wallet ${walletId} has no stored key`)
          // A copy, as a database read would be: the signer zeroes what it opens, not what we store.
          : Effect.succeed(key.store === "local" ? localKey({ keyId: key.sealed.keyId, blob: new Uint8Array(key.sealed.blob) }) : key))
  })
})

export const layer = Layer.effect(SweepRepository, make)
