import { Clock, Context, Effect, Layer } from "effect"
import { confirmationsUnder } from "../ConfirmationRule"
import type { Network } from "../Network"
import { type ConfirmItem, DepositBook } from "./DepositBook"

// Bookings per transaction: a catch-up books hundreds at once, a caught-up scanner one or two.
const bookingChunk = 500
import type { ChainTip, ScanPosition } from "./ScanLedger"

export interface ConfirmationPass {
  readonly confirmed: number
  readonly reverted: number
}

/**
 * Brings deposits in line with the stored chain: first reverts confirmed deposits whose
 * transfer a reorganisation removed, then books stored transfers whose tenant's rule is met.
 * Counts only verified blocks: `block_N` against the stored cursor (every block up to it is
 * linked by parent hashes), `solidified` against the node's solidified block, never above the cursor.
 */
const make = Effect.gen(function*() {
  const book = yield* DepositBook

  const run = (network: Network, tip: ChainTip, cursor: ScanPosition, oldestStored: bigint) =>
    Effect.gen(function*() {
      const now = new Date(yield* Clock.currentTimeMillis)
      let reverted = 0
      for (const id of yield* book.orphaned(network, oldestStored)) {
        if (yield* book.revert(network, id, oldestStored, now)) reverted++
      }
      const verified = {
        head: cursor.number,
        solidified: tip.solidified < cursor.number ? tip.solidified : cursor.number
      }
      const due: Array<ConfirmItem> = []
      for (const transfer of yield* book.pending(network)) {
        const outcome = confirmationsUnder(transfer.rule, transfer.blockNumber, verified)
        if (outcome.met) due.push({ transfer, confirmation: { rule: transfer.rule, confirmations: outcome.confirmations } })
      }
      let confirmed = 0
      for (let start = 0; start < due.length; start += bookingChunk) {
        const outcomes = yield* book.confirmAll(due.slice(start, start + bookingChunk), now)
        confirmed += outcomes.filter((o) => o === "booked").length
      }
      return { confirmed, reverted } satisfies ConfirmationPass
    })

  return { run }
})

export class Confirmations extends Context.Tag("@collector/core/Confirmations")<
  Confirmations,
  Effect.Effect.Success<typeof make>
>() {
  static readonly layer = Layer.effect(Confirmations, make)
}
