import { Clock, Context, Effect, Layer } from "effect"
import { confirmationsUnder } from "../ConfirmationRule"
import type { Network } from "../Network"
import { DepositBook } from "./DepositBook"
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
export const makeConfirmations = Effect.gen(function*() {
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
      let confirmed = 0
      for (const transfer of yield* book.pending(network)) {
        const outcome = confirmationsUnder(transfer.rule, transfer.blockNumber, verified)
        if (!outcome.met) continue
        const booked = yield* book.confirm(transfer, { rule: transfer.rule, confirmations: outcome.confirmations }, now)
        if (booked === "booked") confirmed++
      }
      return { confirmed, reverted } satisfies ConfirmationPass
    })

  return { run }
})

export class Confirmations extends Context.Tag("@collector/core/Confirmations")<
  Confirmations,
  Effect.Effect.Success<typeof makeConfirmations>
>() {
  static readonly layer = Layer.effect(Confirmations, makeConfirmations)
}
