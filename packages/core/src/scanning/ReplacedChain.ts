import { Effect, Option } from "effect"
import type { Network } from "../kernel/Network.js"
import { ScanLedger } from "./ScanLedger.js"

/** How far above the last scanned block a replacing chain begins, so no old block number is reused soon. */
const replacementGap = 1000n

/**
 * A chain that replaces the network's chain as a whole (a simulated node restarted with its
 * chain in memory): it must begin above every block scanned on the old one, so that deposits
 * booked there stay and are never taken for reverted; the scan's position on the old chain is
 * forgotten. Returns the first block number the new chain may use, at least `lowest`.
 */
export const replaceChain = (network: Network, lowest: bigint): Effect.Effect<bigint, never, ScanLedger> =>
  Effect.gen(function*() {
    const ledger = yield* ScanLedger
    const previous = yield* ledger.cursor(network)
    const first = Option.match(previous, {
      onNone: () => lowest,
      onSome: (cursor) => (cursor.number + replacementGap > lowest ? cursor.number + replacementGap : lowest)
    })
    yield* ledger.forget(network)
    return first
  })
