import { Duration, Effect, Option } from "effect"
import { Chain } from "../chain/Chain.js"
import type { Receipt } from "../chain/ChainModel.js"
import { rebroadcast } from "./Broadcasting.js"
import { end, later, type StepResult } from "./SweepStep.js"
import type { ChainView } from "./ChainView.js"
import type { SweeperSettings } from "./SweeperSettings.js"
import type { SweepTask } from "./SweepTask.js"

const settled = (task: SweepTask, now: Date, receipt: Receipt): StepResult => {
  const fees = {
    actualFee: receipt.fee,
    actualBandwidthFee: receipt.bandwidthFee,
    feeWarning: receipt.bandwidthFee > 0n
      ? `${receipt.bandwidthFee} SUN were burned for ${receipt.bandwidthUsage} bytes of bandwidth, which the wallet should have had free`
      : null
  }
  return receipt.result === "SUCCESS"
    ? end(task, now, "succeeded", "", fees)
    : end(task, now, "failed", receipt.result, fees)
}

/**
 * `broadcast` or `unknown` -> `succeeded` | `failed`, only from the solidified node's receipt,
 * or, without one, from proof that the transaction can no longer land: the solidified chain has
 * moved past its expiration. Until then the same bytes are offered again now and then.
 */
export const settle = (task: SweepTask, now: Date, settings: SweeperSettings, view: ChainView) =>
  Effect.gen(function*() {
    const chain = yield* Chain
    const stored = task.transaction!
    // The solidified block of the pass, read before this receipt: a receipt looked up after it
    // covers every block up to it, so "no receipt" and "solidified past the expiration" can never
    // straddle the block the transaction landed in.
    const solidified = view.solidified
    // A first broadcast the node took (at `updatedAt` or after) lands in a block of a later time:
    // until the solidified chain is past that time, the solidified node cannot know it and a look
    // is a wasted node call. After a re-offer `updatedAt` is the re-offer's time and the first
    // offer may have landed before it; the look then waits at most until the next re-offer. Nothing
    // is decided without a look, and a look comes at least once per re-offer interval. `updatedAt`
    // is our clock: one ahead of the chain's only delays the look by the difference.
    const solidifiedUntilBroadcast = task.updatedAt.getTime() - solidified.timestamp.getTime()
    const offerDueIn = Duration.toMillis(settings.rebroadcastInterval) - (now.getTime() - task.updatedAt.getTime())
    if (task.status === "broadcast" && solidifiedUntilBroadcast >= 0 && offerDueIn > 0) {
      return later(task, now, Duration.max(settings.settleInterval, Duration.millis(Math.min(solidifiedUntilBroadcast, offerDueIn))))
    }
    const receipt = yield* chain.receipt(stored.txid)
    if (Option.isSome(receipt)) return settled(task, now, receipt.value)
    const provenAt = stored.expiration.getTime() + Duration.toMillis(settings.expiryMargin)
    if (solidified.timestamp.getTime() > provenAt) {
      const why = task.reason === "" ? "" : ` (${task.reason})`
      return end(
        task,
        now,
        "failed",
        `the transaction expired at ${stored.expiration.toISOString()} without landing: solidified block ${solidified.number} is past it${why}`
      )
    }
    if (now.getTime() - task.updatedAt.getTime() >= Duration.toMillis(settings.rebroadcastInterval)) return yield* rebroadcast(task, now, settings)
    return later(task, now, settings.settleInterval)
  })
