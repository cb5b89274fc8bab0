import { Context, Effect, Fiber, Layer, Option } from "effect"
import { Chain } from "../chain/Chain.js"
import type { BlockNotFound, ChainRejected, ChainUnavailable } from "../chain/ChainErrors.js"
import type { BlockRef, BlockTransfers } from "../chain/ChainModel.js"
import type { Network } from "../kernel/Network.js"
import { matchTransfers } from "./MatchTransfers.js"
import { ForkBelowStoredBlocks } from "./ScanErrors.js"
import type { ScannerSettings } from "./ScannerSettings.js"
import { type ChainTip, type CursorMoved, ScanLedger, type ScanPosition } from "./ScanLedger.js"

type ChainFailure = ChainUnavailable | ChainRejected

export interface ScanProgress {
  /** The chain as the node reported it at the start of the pass. */
  readonly tip: ChainTip
  /** The stored tip after the pass: every block up to it is linked by parent hashes. */
  readonly cursor: ScanPosition
  /** Blocks stored in this pass, and blocks dropped by a reorganisation. */
  readonly stored: number
  readonly dropped: number
}

const linksTo = (block: BlockRef, parent: { readonly hash: string }) => block.parentHash === parent.hash

/** The leading run of `blocks` that builds on `from` and on each other. */
const linkedPrefix = (from: ScanPosition, blocks: ReadonlyArray<BlockTransfers>): ReadonlyArray<BlockTransfers> => {
  let parent: { readonly hash: string } = from
  const linked: Array<BlockTransfers> = []
  for (const block of blocks) {
    if (!linksTo(block.block, parent)) break
    linked.push(block)
    parent = block.block
  }
  return linked
}

const position = (block: BlockRef): ScanPosition => ({ number: block.number, hash: block.hash })

const make = (settings: ScannerSettings) =>
  Effect.gen(function*() {
    const chain = yield* Chain
    const ledger = yield* ScanLedger

    // Tenant wallets among all recipients of a batch: one lookup, never one per log.
    const observe = (network: Network, blocks: ReadonlyArray<BlockTransfers>) => matchTransfers(ledger, network, blocks, { networkMinimum: settings.depositMinimum ?? 0n, countIgnored: true })

    /** Walks down from the cursor to the newest stored block the chain still has, and drops the rest. */
    const rewindToFork = (network: Network, cursor: ScanPosition) =>
      Effect.gen(function*() {
        const oldest = Option.getOrElse(yield* ledger.oldestStored(network), () => cursor.number)
        // From the cursor itself: if the node still has it, the mismatch was a reorganisation
        // between two reads, and nothing stored is dropped (the next batch is simply fetched again).
        let number = cursor.number
        while (number >= oldest) {
          const stored = yield* ledger.storedBlock(network, number)
          if (Option.isNone(stored)) break
          const onChain = yield* chain.blockTransfers(number)
          if (onChain.block.hash === stored.value.hash) {
            yield* ledger.rewind(network, cursor, position(stored.value))
            yield* Effect.logWarning("chain reorganisation").pipe(
              Effect.annotateLogs({ network, fork_block: number.toString(), dropped: (cursor.number - number).toString() })
            )
            return { cursor: position(stored.value), dropped: Number(cursor.number - number) }
          }
          number -= 1n
        }
        return yield* new ForkBelowStoredBlocks({ network, oldestStored: oldest })
      })

    /** The first block: the configured one, or the solidified one, so nothing after it can be missed or undone. */
    const start = (network: Network, tip: ChainTip) =>
      Effect.gen(function*() {
        const first = yield* chain.blockTransfers(settings.startBlock ?? tip.solidified)
        const [scanned] = yield* observe(network, [first])
        yield* ledger.append(network, Option.none(), [scanned!], tip)
        return position(first.block)
      })

    const fetchRange = (from: bigint, to: bigint) =>
      Effect.forEach(
        Array.from({ length: Number(to - from + 1n) }, (_, i) => from + BigInt(i)),
        (number) =>
          chain.blockTransfers(number).pipe(
            Effect.map(Option.some),
            Effect.catchTag("BlockNotFound", () => Effect.succeed(Option.none<BlockTransfers>()))
          ),
        { concurrency: settings.fetchConcurrency }
      ).pipe(
        // A block the node cannot serve yet (a lagging node behind a load balancer) ends the batch there.
        Effect.map((blocks) => {
          const found: Array<BlockTransfers> = []
          for (const block of blocks) {
            if (Option.isNone(block)) break
            found.push(block.value)
          }
          return found
        })
      )

    /**
     * Follows the chain from the stored cursor towards the head, at most `maxBatches` batches
     * (one transaction each); a reorganisation below the head rewinds to the fork first.
     */
    const scan = (network: Network, maxBatches: number) =>
      Effect.scoped(Effect.gen(function*() {
        const [head, solidified] = yield* Effect.all([chain.headBlock, chain.solidifiedBlock], { concurrency: 2 })
        const tip: ChainTip = { head: head.number, solidified: solidified.number }
        const stored = yield* ledger.cursor(network)
        let cursor = Option.isSome(stored) ? stored.value : yield* start(network, tip)
        let storedCount = Option.isSome(stored) ? 0 : 1
        let dropped = 0
        // Same height, other block: the head itself was replaced.
        if (head.number === cursor.number && head.hash !== cursor.hash) {
          const rewound = yield* rewindToFork(network, cursor)
          cursor = rewound.cursor
          dropped += rewound.dropped
        }
        const rangeAfter = (from: bigint) => ({
          from: from + 1n,
          to: from + BigInt(settings.batchBlocks) > head.number ? head.number : from + BigInt(settings.batchBlocks)
        })
        // The next batch is fetched while this one is stored: the node and the database work side by side.
        let prefetched: { readonly from: bigint; readonly fiber: Fiber.Fiber<ReadonlyArray<BlockTransfers>, ChainFailure> } | undefined
        for (let batch = 0; batch < maxBatches && cursor.number < head.number; batch++) {
          const range = rangeAfter(cursor.number)
          const fetched = prefetched !== undefined && prefetched.from === range.from
            ? yield* Fiber.join(prefetched.fiber)
            : yield* fetchRange(range.from, range.to)
          prefetched = undefined
          if (fetched.length === 0) break
          const linked = linkedPrefix(cursor, fetched)
          if (linked.length === 0) {
            const rewound = yield* rewindToFork(network, cursor)
            cursor = rewound.cursor
            dropped += rewound.dropped
            continue
          }
          const next = position(linked[linked.length - 1]!.block)
          if (batch + 1 < maxBatches && next.number < head.number) {
            const ahead = rangeAfter(next.number)
            prefetched = { from: ahead.from, fiber: yield* Effect.forkScoped(fetchRange(ahead.from, ahead.to)) }
          }
          const scanned = yield* observe(network, linked)
          yield* ledger.append(network, Option.some(cursor), scanned, tip)
          cursor = next
          storedCount += linked.length
        }
        return { tip, cursor, stored: storedCount, dropped } satisfies ScanProgress
      }))

    return { scan }
  })

export interface ScannerService {
  readonly scan: (
    network: Network,
    maxBatches: number
  ) => Effect.Effect<ScanProgress, ChainFailure | BlockNotFound | CursorMoved | ForkBelowStoredBlocks>
}

export class Scanner extends Context.Tag("@collector/core/Scanner")<Scanner, ScannerService>() {
  static readonly layer = (settings: ScannerSettings) => Layer.effect(Scanner, make(settings))
}
