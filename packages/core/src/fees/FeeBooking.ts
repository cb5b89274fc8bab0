import { Clock, Effect, Option } from "effect"
import { Chain } from "../chain/Chain.js"
import type { Receipt } from "../chain/ChainModel.js"
import { DelegationLedger } from "../delegation/DelegationLedger.js"
import type { EnergyDelegation } from "../delegation/EnergyDelegation.js"
import type { Network } from "../kernel/Network.js"
import { SweepRepository } from "../sweeps/SweepRepository.js"
import { FeeLedger, type UnbookedTask } from "./FeeLedger.js"
import { countBooked } from "./FeeMetrics.js"
import { feeEntry } from "./FeeSplit.js"

/**
 * The receipts of a delegation's delegating and reclaiming transactions, or none when it never
 * reached the chain (reclaimed with no reclaim transaction). Null while the stake is still lent
 * (the reclaim's fee is not known yet) or while a receipt is not on the solidified node.
 */
const lendingReceipts = (delegation: EnergyDelegation) =>
  Effect.gen(function*() {
    if (delegation.state !== "reclaimed") return null
    if (delegation.reclaimTxid === null) return []
    const chain = yield* Chain
    const receipts: Array<Receipt> = []
    for (const txid of [delegation.delegateTxid, delegation.reclaimTxid]) {
      const receipt = yield* chain.receipt(txid)
      if (Option.isNone(receipt)) return null
      receipts.push(receipt.value)
    }
    return receipts
  })

/**
 * Books one finished task: its receipt from the chain, its delegation and that delegation's
 * receipts, the entry, recorded once. A task whose stake is still lent waits for its reclaim.
 * Nothing is written before `record`, and `record` keeps the first entry of a task: a crash
 * anywhere before it leaves the task unbooked for the next pass, a crash after it leaves it
 * booked, and two passes racing book it once. Metrics count only the call that stored it.
 */
const bookOne = (unbooked: UnbookedTask, energyPrice: bigint) =>
  Effect.gen(function*() {
    const sweeps = yield* SweepRepository
    const ledger = yield* FeeLedger
    const view = yield* sweeps.find({ tenantId: unbooked.tenantId, network: unbooked.network }, unbooked.taskId)
    if (Option.isNone(view) || view.value.task.transaction === null) return false
    const task = view.value.task
    const delegation = Option.getOrNull(yield* (yield* DelegationLedger).find(task.id))
    const lending = delegation === null ? [] : yield* lendingReceipts(delegation)
    if (lending === null) return false
    const receipt = yield* (yield* Chain).receipt(task.transaction!.txid)
    // Settled from a receipt the solidified node no longer shows (a node behind): try next pass.
    if (Option.isNone(receipt)) return false
    const bookedAt = new Date(yield* Clock.currentTimeMillis)
    const entry = feeEntry({ task, receipt: receipt.value, delegation, lendingReceipts: lending, energyPrice, bookedAt })
    const stored = yield* ledger.record(entry)
    if (stored) yield* countBooked(entry)
    return stored
  })

/**
 * One pass of fee booking on the network: finished tasks not yet in the ledger, each booked at
 * the energy price read once for the pass, until `limit` are stored or none is left. The tasks
 * are read `limit` at a time: those that must wait (stake still lent, a receipt not yet on the
 * solidified node) are passed over, so they never hold back the tasks behind them. How many this
 * pass stored.
 */
export const bookFees = (network: Network, limit: number) =>
  Effect.gen(function*() {
    const ledger = yield* FeeLedger
    let page = yield* ledger.unbooked(network, limit)
    if (page.length === 0) return 0
    const { energyFee } = yield* (yield* Chain).parameters
    let stored = 0
    for (;;) {
      for (const task of page) if (yield* bookOne(task, energyFee)) stored++
      if (page.length < limit || stored >= limit) return stored
      page = yield* ledger.unbooked(network, limit, page[page.length - 1]!.taskId)
    }
  }).pipe(Effect.withSpan("FeeBooking.pass", { attributes: { network } }))
