import { Clock, Effect, Option } from "effect"
import { Chain } from "../chain/Chain.js"
import { DelegationLedger } from "../delegation/DelegationLedger.js"
import type { Network } from "../Network.js"
import { SweepRepository } from "../sweeps/SweepRepository.js"
import { FeeLedger, type UnbookedTask } from "./FeeLedger.js"
import { countBooked } from "./FeeMetrics.js"
import { feeEntry } from "./FeeSplit.js"

/**
 * Books one finished task: its receipt from the chain, its delegation, the entry, recorded once.
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
    const receipt = yield* (yield* Chain).receipt(task.transaction!.txid)
    // Settled from a receipt the solidified node no longer shows (a node behind): try next pass.
    if (Option.isNone(receipt)) return false
    const delegation = yield* (yield* DelegationLedger).find(task.id)
    const bookedAt = new Date(yield* Clock.currentTimeMillis)
    const entry = feeEntry({ task, receipt: receipt.value, delegation: Option.getOrNull(delegation), energyPrice, bookedAt })
    const stored = yield* ledger.record(entry)
    if (stored) yield* countBooked(entry)
    return stored
  })

/**
 * One pass of fee booking on the network: up to `limit` finished tasks not yet in the ledger,
 * each booked at the energy price read once for the pass. How many this pass stored.
 */
export const bookFees = (network: Network, limit: number) =>
  Effect.gen(function*() {
    const ledger = yield* FeeLedger
    const tasks = yield* ledger.unbooked(network, limit)
    if (tasks.length === 0) return 0
    const { energyFee } = yield* (yield* Chain).parameters
    let stored = 0
    for (const task of tasks) if (yield* bookOne(task, energyFee)) stored++
    return stored
  }).pipe(Effect.withSpan("FeeBooking.pass", { attributes: { network } }))
