import { Clock, Duration, Effect } from "effect"
import { Chain } from "../chain/Chain.js"
import type { SignedTransaction } from "../chain/ChainModel.js"
import { proceed } from "./SweepStep.js"
import type { SweeperSettings } from "./SweeperSettings.js"
import type { StoredTransaction, SweepTask } from "./SweepTask.js"

export const signedTransaction = (stored: StoredTransaction): SignedTransaction => ({
  txid: stored.txid,
  rawDataHex: stored.rawDataHex,
  expiration: stored.expiration,
  feeLimit: stored.feeLimit,
  signatures: [stored.signature]
})

/**
 * `signed` -> `broadcast`, always with the stored bytes. An answer we did not get makes the task
 * `unknown`: it may be in a node's pool. A refusal keeps it `signed` and it is offered again
 * until it expires; after that only Settlement can end it, by its receipt or by proof.
 */
export const broadcast = (task: SweepTask, now: Date, settings: SweeperSettings) =>
  Effect.gen(function*() {
    const chain = yield* Chain
    const stored = task.transaction!
    const outcome = yield* Effect.either(chain.broadcast(signedTransaction(stored)))
    if (outcome._tag === "Left") {
      return proceed(task, now, { status: "unknown", reason: `broadcast result unknown: ${outcome.left.reason}` }, settings.settleInterval)
    }
    const answer = outcome.right
    if (answer._tag !== "Rejected") {
      // Counted from the node's answer, not the pass's start: a pass of many broadcasts takes
      // seconds, and the transaction cannot land before the node has it.
      const answeredAfter = Duration.millis(Math.max(0, (yield* Clock.currentTimeMillis) - now.getTime()))
      return proceed(task, now, { status: "broadcast", reason: "" }, Duration.sum(answeredAfter, settings.settleDelay))
    }
    const reason = `broadcast refused: ${answer.code}: ${answer.message}`
    if (stored.expiration.getTime() <= now.getTime()) return proceed(task, now, { status: "unknown", reason }, settings.settleInterval)
    return proceed(task, now, { reason }, settings.rebroadcastInterval)
  })

/**
 * The same stored bytes again, for a transaction the network seems to have lost; the answer
 * changes nothing. `updated_at` records the offer, so the next one waits a whole interval. A
 * transaction recovered from the chain after its record was lost (`Reconciliation.ts`) has no
 * stored bytes, and was on chain already: it is not offered, only waited for.
 */
export const rebroadcast = (task: SweepTask, now: Date, settings: SweeperSettings) =>
  Effect.gen(function*() {
    const chain = yield* Chain
    const stored = task.transaction!
    if (stored.rawDataHex !== "") yield* Effect.either(chain.broadcast(signedTransaction(stored)))
    return proceed(task, now, {}, settings.settleInterval)
  })
