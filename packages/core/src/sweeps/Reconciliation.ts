import { Clock, Duration, Effect, Metric, Option } from "effect"
import type { Network } from "../kernel/Network.js"
import { ScanLedger, type StoredOutflow } from "../scanning/ScanLedger.js"
import type { TenantScope } from "../tenants/Scope.js"
import { unsignedStatuses } from "./OperatorIntervention.js"
import { unaccountedOutflows } from "./SweepMetrics.js"
import { SweepRepository } from "./SweepRepository.js"
import { proceed } from "./SweepStep.js"
import type { SweepTask } from "./SweepTask.js"

/*
 * Sweep reconciliation by txid. After an asynchronous failover the database may have lost a
 * task's `signed`/`broadcast` write while its transaction reached the chain: the task is back to
 * an earlier, unsigned state. The scanner stores every transfer out of our wallets whose txid no
 * task holds (`ScannedBlock.outflows`); this pass gives such a transfer back to the task that
 * signed it, or reports it as money moved by someone else.
 */

/** java-tron refuses a transaction expiring more than 24 h after its head: the latest the lost one could expire. */
const longestValidity = Duration.hours(24)

/** Outflows looked at in one pass; the rest wait for the next. */
const batchSize = 100

/** The claim the pass holds on a task while it writes it back: one write, then it is released. */
const holdMillis = 30_000

/** A task created after its transfer was in a block cannot have signed it; our clock may be this far ahead of the chain's. */
const clockSkewMillis = 60_000

export type OutflowVerdict = "restored" | "reported" | "waiting"

export interface ReconciliationSummary {
  readonly restored: number
  readonly reported: number
  /** Outflows whose task a sweeper holds at this moment: looked at again next pass. */
  readonly waiting: number
}

/**
 * Whether the task would have signed exactly this amount: a fixed task its requested amount, a
 * prepared `all` task the amount its preparation fixed. An `all` task whose preparation was lost
 * too (amount 0) cannot tell: its whole balance is what it would have sent.
 */
const amountFits = (task: SweepTask, amount: bigint) =>
  task.mode === "fixed" ? amount === task.requestedAmount : task.amount === 0n || amount === task.amount

/**
 * The task whose lost record signed `outflow`: the wallet's unfinished task to the same
 * destination, with no transaction (an unsigned state), created before the block, and of the
 * amount it would have signed. A task that ended (`cancelled`, `failed`) is never reopened: a
 * terminal task never changes.
 */
const lostSweepOf = (outflow: StoredOutflow) => (task: SweepTask) =>
  task.walletId === outflow.wallet.walletId && task.destination === outflow.transfer.to && task.transaction === null &&
  unsignedStatuses.includes(task.status) && amountFits(task, outflow.transfer.amount) &&
  task.createdAt.getTime() <= outflow.block.timestamp.getTime() + clockSkewMillis

/**
 * The task as the lost write had it, as far as the chain tells: `broadcast` with the txid, the
 * amount that moved, and an expiration no later than the real one, so settlement reads the
 * receipt and ends it (`sweep.succeeded` once, with its fee). The signed bytes are not known
 * (the node is not asked for them): an empty `rawDataHex` marks a transaction recovered from the
 * chain, which is never offered again (`Broadcasting.rebroadcast`).
 */
export const restoredTask = (task: SweepTask, outflow: StoredOutflow, now: Date) =>
  proceed(task, now, {
    status: "broadcast",
    stage: "ready",
    amount: outflow.transfer.amount,
    reason: `restored from the chain: transaction ${outflow.transfer.txid} in block ${outflow.block.number} after its record was lost`,
    transaction: {
      txid: outflow.transfer.txid,
      rawDataHex: "",
      signature: "",
      expiration: new Date(outflow.block.timestamp.getTime() + Duration.toMillis(longestValidity)),
      feeLimit: 0n
    }
  }).task

const reconcileOne = (network: Network, outflow: StoredOutflow, worker: string) =>
  Effect.gen(function*() {
    const ledger = yield* ScanLedger
    const repo = yield* SweepRepository
    const scope: TenantScope = { tenantId: outflow.wallet.tenantId, network }
    const { txid, logIndex } = outflow.transfer
    // Written back by an earlier pass that stopped before closing the outflow.
    const holder = yield* repo.list(scope, { page: 1, pageSize: 1, txid })
    const known = holder.items[0]
    if (known !== undefined) {
      yield* ledger.closeOutflow(network, outflow.transfer, { state: "restored", taskId: known.task.id })
      return "restored" as const
    }
    const tasks = yield* repo.list(scope, { page: 1, pageSize: 20, walletId: outflow.wallet.walletId })
    const lost = tasks.items.map((v) => v.task).find(lostSweepOf(outflow))
    if (lost !== undefined) {
      const now = new Date(yield* Clock.currentTimeMillis)
      // Claimed as a sweeper claims it, so a sweeper preparing the task and this pass never both write it.
      const claimed = yield* repo.claimOne(scope, lost.id, unsignedStatuses, worker, now, new Date(now.getTime() + holdMillis))
      if (Option.isNone(claimed) || !lostSweepOf(outflow)(claimed.value)) return "waiting" as const
      const saved = yield* repo.save(restoredTask(claimed.value, outflow, now), worker)
      if (!saved) return "waiting" as const
      yield* ledger.closeOutflow(network, outflow.transfer, { state: "restored", taskId: lost.id })
      yield* Effect.logWarning("sweep restored from the chain after its record was lost").pipe(
        Effect.annotateLogs({ network, task_id: lost.id, wallet_id: outflow.wallet.walletId, txid, amount: outflow.transfer.amount.toString() })
      )
      return "restored" as const
    }
    // Closed first: whoever closes it reports it, once.
    if (!(yield* ledger.closeOutflow(network, { txid, logIndex }, { state: "reported" }))) return "waiting" as const
    yield* Effect.logError("USDT left a tenant wallet in a transaction no sweep task accounts for: its key may be used outside the service").pipe(
      Effect.annotateLogs({
        network,
        tenant_id: outflow.wallet.tenantId,
        wallet_id: outflow.wallet.walletId,
        wallet: outflow.wallet.address,
        to: outflow.transfer.to,
        txid,
        log_index: logIndex,
        block: outflow.block.number.toString(),
        amount: outflow.transfer.amount.toString()
      })
    )
    yield* Metric.increment(unaccountedOutflows(network))
    return "reported" as const
  })

/**
 * One reconciliation pass over the network's open outflows, as `worker` (the sweeper's holder):
 * each is given back to the task whose lost record signed it, left for the next pass while a
 * sweeper holds that task, or reported once (error log, `collector_unaccounted_outflows_total`).
 */
export const reconcileOutflows = (network: Network, worker: string) =>
  Effect.gen(function*() {
    const ledger = yield* ScanLedger
    const open = yield* ledger.openOutflows(network, batchSize)
    const verdicts = yield* Effect.forEach(open, (outflow) => reconcileOne(network, outflow, worker))
    const count = (verdict: OutflowVerdict) => verdicts.filter((v) => v === verdict).length
    return { restored: count("restored"), reported: count("reported"), waiting: count("waiting") } satisfies ReconciliationSummary
  }).pipe(Effect.withSpan("Sweeps.reconcileOutflows"))
