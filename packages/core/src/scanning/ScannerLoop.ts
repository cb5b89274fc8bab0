import { Cause, Clock, Context, Duration, Effect, Layer, Metric, Option } from "effect"
import { Chain } from "../chain/Chain.js"
import { ComponentStatus } from "../engine/ComponentStatus.js"
import { DatabaseWaits } from "../engine/DatabaseWaits.js"
import { engineComponents } from "../engine/EngineComponents.js"
import { makeOutageLog } from "../engine/OutageLog.js"
import type { Network } from "../kernel/Network.js"
import { OutboxSignal } from "../notifications/OutboxSignal.js"
import { Confirmations } from "./Confirmations.js"
import { IntegrityCheck } from "./IntegrityCheck.js"
import { Scanner, type ScanProgress } from "./Scanner.js"
import type { ScannerLoopSettings } from "./ScannerLoopSettings.js"
import { ScanLedger } from "./ScanLedger.js"
import { scanBlocks, scanHeadLag } from "./ScanMetrics.js"

// A new wallet's deposits can only be in blocks after it existed; this margin covers clock skew.
const newWalletMarginMillis = 60_000

/**
 * One network's scanner as the worker runs it: holds the network's lease, follows the chain,
 * books confirmations and reverts, re-checks recent blocks, prunes, and reports its lag.
 */
const make = (settings: ScannerLoopSettings) =>
  Effect.gen(function*() {
    const scanner = yield* Scanner
    const chain = yield* Chain
    const confirmations = yield* Confirmations
    const integrity = yield* IntegrityCheck
    const ledger = yield* ScanLedger
    const status = yield* ComponentStatus
    const outbox = yield* OutboxSignal
    const outages = makeOutageLog("scanner")
    const watched = (network: Network) => DatabaseWaits.watching(engineComponents.scanner, network)

    const report = (network: Network, state: string, detail: string) =>
      Clock.currentTimeMillis.pipe(
        Effect.flatMap((now) => status.report({ component: "scanner", network, status: state, detail, updatedAt: new Date(now) }))
      )

    const describe = (progress: ScanProgress) => {
      const lag = progress.tip.head - progress.cursor.number
      return `lag ${lag < 0n ? 0n : lag} blocks (stored block ${progress.cursor.number}, head ${progress.tip.head}, solidified ${progress.tip.solidified})`
    }

    /**
     * What this process remembers of each network between passes: when the next integrity check
     * is due (the first pass makes one) and the last wallet the scanner knew of (newer wallets'
     * recent blocks are checked again).
     */
    const states = new Map<Network, { integrityDue: number; lastWalletId: string }>()
    const stateOf = (network: Network) =>
      Effect.gen(function*() {
        const known = states.get(network)
        if (known !== undefined) return known
        const state = { integrityDue: yield* Clock.currentTimeMillis, lastWalletId: yield* ledger.lastWalletId }
        states.set(network, state)
        return state
      })

    /**
     * One pass; returns where it left the cursor and the tip it saw. `run` makes it under the
     * network's lease; without it, the cursor's compare-and-set keeps a concurrent scanner's work
     * (`CursorMoved`).
     */
    const passProgress = (network: Network) =>
      Effect.gen(function*() {
        const state = yield* stateOf(network)
        const progress = yield* scanner.scan(network, settings.batchesPerPass)
        const lag = progress.tip.head - progress.cursor.number
        yield* Metric.set(scanHeadLag(network), Number(lag < 0n ? 0n : lag))
        if (progress.stored > 0) yield* Metric.incrementBy(scanBlocks(network), progress.stored)
        const oldest = Option.getOrElse(yield* ledger.oldestStored(network), () => progress.cursor.number)
        const booked = yield* confirmations.run(network, progress.tip, progress.cursor, oldest)
        // Their events are committed: the notifier need not wait for its next poll.
        if (booked.confirmed + booked.reverted > 0) yield* outbox.raise
        const now = yield* Clock.currentTimeMillis
        if (now >= state.integrityDue) {
          const from = progress.cursor.number - settings.integrityWindow > oldest ? progress.cursor.number - settings.integrityWindow : oldest
          yield* integrity.recheck(network, from, progress.cursor.number)
          state.integrityDue = now + Duration.toMillis(settings.integrityInterval)
        }
        const newWallets = yield* ledger.newWallets(network, state.lastWalletId)
        if (Option.isSome(newWallets)) {
          state.lastWalletId = newWallets.value.lastId
          const first = yield* ledger.firstBlockSince(network, new Date(newWallets.value.firstCreatedAt.getTime() - newWalletMarginMillis))
          if (Option.isSome(first)) yield* integrity.recheck(network, first.value, progress.cursor.number)
        }
        const settled = progress.tip.solidified < progress.cursor.number ? progress.tip.solidified : progress.cursor.number
        yield* ledger.prune(network, settled - settings.retainedBlocks)
        const summary = booked.confirmed + booked.reverted + progress.dropped > 0
          ? `; last pass stored ${progress.stored} blocks, confirmed ${booked.confirmed}, reverted ${booked.reverted}, dropped ${progress.dropped}`
          : ""
        yield* outages.reached(network)
        yield* report(network, "ok", describe(progress) + summary)
        return progress
      })

    const reachedHead = (progress: ScanProgress) => progress.cursor.number >= progress.tip.head

    /** One pass; whether the head was reached. */
    const pass = (network: Network) => Effect.map(passProgress(network), reachedHead)

    /**
     * At the head, only the head's number is polled (one light node call, no statements) until a
     * new block shows, so a block is scanned within one poll interval of being served without a
     * full pass each interval. The solidified block moves only with new blocks, so the head says
     * when a pass can book anything. The wait ends after a third of the lease at the latest (the
     * next pass renews it), and at once when the node fails (the pass reports why).
     */
    const untilHeadMoves = (head: bigint) =>
      Effect.gen(function*() {
        const until = (yield* Clock.currentTimeMillis) + Duration.toMillis(settings.leaseTtl) / 3
        while (true) {
          yield* Effect.sleep(settings.pollInterval)
          if ((yield* Clock.currentTimeMillis) >= until) return
          const polled = yield* Effect.option(chain.headBlock)
          if (Option.isNone(polled) || polled.value.number !== head) return
        }
      })

    const run = (network: Network, holder: string) =>
      Effect.gen(function*() {
        yield* stateOf(network)
        const ttl = Duration.toMillis(settings.leaseTtl)
        while (true) {
          const held = yield* ledger.claimLease(network, holder, ttl).pipe(watched(network))
          if (!held) {
            yield* Effect.sleep(Duration.millis(ttl / 3))
            continue
          }
          const atHead = yield* passProgress(network).pipe(
            watched(network),
            Effect.map((progress) => reachedHead(progress) ? Option.some(progress.tip.head) : Option.none()),
            Effect.catchTags({
              // Another worker got there first; its work stands and ours was not written.
              CursorMoved: () => Effect.succeed(Option.none()),
              ForkBelowStoredBlocks: (error) =>
                Effect.logError("reorganisation below the stored blocks; scanning stopped").pipe(
                  Effect.zipRight(report(network, "stopped", `the chain forked below stored block ${error.oldestStored}; operator action needed`)),
                  Effect.zipRight(Effect.sleep(settings.failureBackoff)),
                  Effect.as(Option.none())
                ),
              BlockNotFound: (error) =>
                report(network, "degraded", `node could not serve block ${error.number}`).pipe(
                  Effect.zipRight(outages.failed(network, `node could not serve block ${error.number}`)),
                  Effect.zipRight(Effect.sleep(settings.failureBackoff)),
                  Effect.as(Option.none())
                ),
              ChainUnavailable: (error) =>
                report(network, "degraded", `node unavailable: ${error.reason}`).pipe(
                  Effect.zipRight(outages.failed(network, `node unavailable: ${error.reason}`)),
                  Effect.zipRight(Effect.sleep(settings.failureBackoff)),
                  Effect.as(Option.none())
                ),
              ChainRejected: (error) =>
                report(network, "degraded", `node answered with an error: ${error.reason}`).pipe(
                  Effect.zipRight(outages.failed(network, `node answered with an error: ${error.reason}`)),
                  Effect.zipRight(Effect.sleep(settings.failureBackoff)),
                  Effect.as(Option.none())
                )
            }),
            // A storage failure or a bug must not end the loop unnoticed: log it, say so, retry.
            Effect.catchAllCause((cause) =>
              Effect.logError("scanner pass failed", cause).pipe(
                Effect.zipRight(report(network, "degraded", `pass failed: ${Cause.squash(cause)}`)),
                Effect.zipRight(Effect.sleep(settings.failureBackoff)),
                Effect.as(Option.none())
              )
            )
          )
          if (Option.isSome(atHead)) yield* untilHeadMoves(atHead.value)
        }
      }).pipe(Effect.ensuring(ledger.releaseLease(network, holder)))

    return { run, pass }
  })

export class ScannerLoop extends Context.Tag("@collector/core/ScannerLoop")<
  ScannerLoop,
  Effect.Effect.Success<ReturnType<typeof make>>
>() {
  static readonly layer = (settings: ScannerLoopSettings) => Layer.effect(ScannerLoop, make(settings))
}
