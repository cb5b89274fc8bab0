import { Context, Effect, Layer } from "effect"
import { Chain } from "../chain/Chain.js"
import type { Network } from "../kernel/Network.js"
import { matchTransfers } from "./MatchTransfers.js"
import { ScanLedger } from "./ScanLedger.js"

/**
 * Re-reads stored blocks from the node and restores any deposit (as `matchTransfers` sorts them:
 * our own sweeps are none) that storage lacks (a wallet whose address arrived late, a lost write,
 * a manual repair). A block
 * that the node now has with another hash is left to the scanner's reorganisation handling, and
 * a transfer already booked in the same block is never stored again, so nothing is booked twice.
 */
const make = (fetchConcurrency: number, depositMinimum: bigint) =>
  Effect.gen(function*() {
    const chain = yield* Chain
    const ledger = yield* ScanLedger

    // A bounded chunk at a time, so a long window never holds hundreds of parsed blocks.
    const chunkBlocks = 50n

    const recheck = (network: Network, from: bigint, to: bigint): Effect.Effect<number, Effect.Effect.Error<ReturnType<typeof recheckChunk>>> =>
      Effect.gen(function*() {
        let restored = 0
        for (let start = from; start <= to; start += chunkBlocks) {
          const end = start + chunkBlocks - 1n < to ? start + chunkBlocks - 1n : to
          restored += yield* recheckChunk(network, start, end)
        }
        return restored
      })

    const recheckChunk = (network: Network, from: bigint, to: bigint) =>
      Effect.gen(function*() {
        const numbers = Array.from({ length: Number(to - from + 1n) }, (_, i) => from + BigInt(i))
        const blocks = yield* Effect.forEach(numbers, (number) => chain.blockTransfers(number), { concurrency: fetchConcurrency })
        const observed = (yield* matchTransfers(ledger, network, blocks, { networkMinimum: depositMinimum, countIgnored: false })).flatMap((b) => b.transfers)
        const restored = observed.length === 0 ? 0 : yield* ledger.restore(network, observed)
        if (restored > 0) {
          yield* Effect.logWarning("integrity check restored missing transfers").pipe(
            Effect.annotateLogs({ network, from: from.toString(), to: to.toString(), restored })
          )
        }
        return restored
      })

    return { recheck }
  })

export class IntegrityCheck extends Context.Tag("@collector/core/IntegrityCheck")<
  IntegrityCheck,
  Effect.Effect.Success<ReturnType<typeof make>>
>() {
  /** `depositMinimum`: the network's, as the scanner has it (`ScannerSettings`), so a re-read restores no dust. */
  static readonly layer = (fetchConcurrency: number, depositMinimum = 0n) => Layer.effect(IntegrityCheck, make(fetchConcurrency, depositMinimum))
}
