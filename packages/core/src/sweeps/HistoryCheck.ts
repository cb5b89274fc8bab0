import { Effect, Option } from "effect"
import { Chain } from "../chain/Chain.js"

export type HistoryVerdict = "kept" | "missing" | "unproven"

/** How far below the solidified block a transfer to test with is looked for. */
const searchDepth = 20n

/**
 * Whether the node keeps transaction history: settlement reads receipts by txid, and on a node
 * that keeps none (`storage.transHistory.switch` off, a lite node) every sweep would look lost
 * once it expired. A recent solidified USDT transfer must have a receipt; with none to test
 * with (a quiet chain), the verdict is `unproven`.
 */
export const checkHistory = Effect.gen(function*() {
  const chain = yield* Chain
  const solidified = yield* chain.solidifiedBlock
  for (let number = solidified.number; number > 0n && number > solidified.number - searchDepth; number--) {
    const { transfers } = yield* chain.blockTransfers(number)
    const sample = transfers[0]
    if (sample !== undefined) return Option.isSome(yield* chain.receipt(sample.txid)) ? "kept" : "missing"
  }
  return "unproven"
}).pipe(Effect.map((verdict): HistoryVerdict => verdict as HistoryVerdict))
