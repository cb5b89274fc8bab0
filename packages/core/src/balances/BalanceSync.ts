import { Cause, Clock, type Config, Context, Duration, Effect, Either, Layer, Option } from "effect"
import { Chain } from "../chain/Chain.js"
import { ChainRejected } from "../chain/ChainErrors.js"
import { ComponentStatus } from "../engine/ComponentStatus.js"
import { DatabaseWaits } from "../engine/DatabaseWaits.js"
import { engineComponents } from "../engine/EngineComponents.js"
import { makeOutageLog } from "../engine/OutageLog.js"
import type { Network } from "../kernel/Network.js"
import { type BalanceBatch, batchDetail } from "./BalanceBatch.js"
import { BalanceLedger, type BalanceReading } from "./BalanceLedger.js"
import { balanceSyncConfig, type BalanceSyncSettings, defaultBalanceSyncSettings } from "./BalanceSyncSettings.js"

export const balanceSyncComponent = engineComponents.balanceSync

const describe = (error: { readonly _tag: string; readonly reason?: string }) =>
  error.reason === undefined ? error._tag : `${error._tag}: ${error.reason}`

const make = (config: BalanceSyncSettings) => Effect.gen(function*() {
  const chain = yield* Chain
  const ledger = yield* BalanceLedger
  const status = yield* ComponentStatus
  const outages = makeOutageLog("balance sync")

  const report = (network: Network, ok: boolean, detail: string) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) =>
      status.report({ component: balanceSyncComponent, network, status: ok ? "ok" : "degraded", detail, updatedAt: new Date(now) }))

  const readBatch = (network: Network) =>
    Effect.gen(function*() {
      // One request per batch buys the stale-wallet bound of `due` (see BalanceLedger), and is the
      // block every reading of the batch is at least as recent as: two node calls per wallet.
      const solidified = yield* Effect.either(chain.solidifiedBlock)
      if (Either.isLeft(solidified)) {
        yield* outages.failed(network, `cannot read the solidified block: ${describe(solidified.left)}`)
        return { picked: 0, readings: [], failed: 0, error: Option.some(`node: ${describe(solidified.left)}`) }
      }
      yield* outages.reached(network)
      const wallets = yield* ledger.due(network, config.batchSize, solidified.right.number)
      // Each wallet on its own: one failure costs that wallet's reading only.
      const results = yield* Effect.forEach(wallets, (wallet) =>
        chain.balances(wallet.address, solidified.right.number).pipe(
          Effect.flatMap((account) =>
            account.atBlock > 0n
              ? Effect.succeed<BalanceReading>({ walletId: wallet.id, usdt: account.usdt, trx: account.trx, atBlock: account.atBlock })
              // Balances at block 0 would read as "never synced" (and break the schema's rule).
              : Effect.fail(new ChainRejected({ reason: `${wallet.address} read at block 0` }))),
          Effect.tapError((error) => Effect.logWarning(`balance sync: cannot read wallet ${wallet.id} (${wallet.address})`, error)),
          Effect.either
        ), { concurrency: config.concurrency })
      const readings = results.filter(Either.isRight).map((r) => r.right)
      const failures = results.filter(Either.isLeft).map((r) => r.left)
      return {
        picked: wallets.length,
        readings,
        failed: failures.length,
        error: Option.map(Option.fromNullable(failures[0]), (e) => `wallet: ${describe(e)}`)
      }
    })

  const syncBatch = (network: Network): Effect.Effect<BalanceBatch> =>
    Effect.gen(function*() {
      const read = yield* readBatch(network)
      const recorded = read.readings.length === 0 ? 0 : yield* ledger.record(network, read.readings)
      const atBlock = read.readings.reduce<Option.Option<bigint>>(
        (highest, r) => Option.isSome(highest) && highest.value >= r.atBlock ? highest : Option.some(r.atBlock),
        Option.none()
      )
      const batch: BalanceBatch = {
        picked: read.picked,
        recorded,
        failed: read.failed,
        atBlock,
        error: read.error,
        backlog: yield* ledger.backlog(network)
      }
      yield* report(network, Option.isNone(batch.error), batchDetail(batch))
      return batch
    }).pipe(Effect.annotateLogs({ component: balanceSyncComponent, network }))

  const backoffAfter = (failedBatches: number) =>
    Duration.min(Duration.times(config.backoff, 2 ** Math.min(failedBatches - 1, 30)), config.maxBackoff)

  /**
   * Pacing is per wallet: a batch of n wallets owns n / walletsPerSecond seconds from its start,
   * so slow node replies eat into the pause rather than add to it. An empty batch (no wallets yet)
   * waits as long as a full one would. Time debt is never carried over: after a slow batch the
   * next starts at once, without bursting to catch up.
   */
  const run = (network: Network): Effect.Effect<never> =>
    Effect.iterate({ failedBatches: 0 }, {
      while: () => true,
      body: ({ failedBatches }) =>
        Effect.gen(function*() {
          const started = yield* Clock.currentTimeMillis
          const outcome = yield* syncBatch(network).pipe(
            DatabaseWaits.watching(balanceSyncComponent, network),
            Effect.map((batch) => ({ slots: batch.picked, failed: Option.isSome(batch.error) })),
            // The database (or the heartbeat board) failing must not end the loop either.
            Effect.catchAllCause((cause) =>
              Cause.isInterruptedOnly(cause)
                ? Effect.failCause(cause)
                : Effect.logError("balance sync: batch failed", cause).pipe(
                  Effect.zipRight(report(network, false, `batch failed: ${Cause.squash(cause)}`).pipe(Effect.catchAllCause(() => Effect.void))),
                  Effect.as({ slots: 0, failed: true })
                ))
          )
          const slots = outcome.slots === 0 ? config.batchSize : outcome.slots
          const elapsed = (yield* Clock.currentTimeMillis) - started
          const pause = Math.max(0, Math.ceil((slots * 1000) / config.walletsPerSecond) - elapsed)
          const next = outcome.failed ? failedBatches + 1 : 0
          const extra = outcome.failed ? Duration.toMillis(backoffAfter(next)) : 0
          yield* Effect.sleep(Duration.millis(pause + extra))
          return { failedBatches: next }
        })
    }).pipe(Effect.zipRight(Effect.never))

  return {
    /** Reads up to a batch of due wallets from the node, records what it read, reports the heartbeat. */
    syncBatch,
    /** Batch after batch at the configured wallets per second, backing off after failures; never returns. */
    run
  }
})

/**
 * Keeps each wallet's USDT and TRX balance at a recent solidified block. The Chain in context
 * must be the node of the network the methods are called with: one BalanceSync per network.
 */
export class BalanceSync extends Context.Tag("@collector/core/BalanceSync")<BalanceSync, Effect.Effect.Success<ReturnType<typeof make>>>() {
  /** With `settings` over the defaults. */
  static readonly layer = (settings: Partial<BalanceSyncSettings> = {}) =>
    Layer.effect(BalanceSync, make({ ...defaultBalanceSyncSettings, ...settings }))
  /** With the settings of `config` (by default the BALANCE_SYNC_* variables). */
  static readonly layerConfig = (config: Config.Config<BalanceSyncSettings> = balanceSyncConfig) =>
    Layer.unwrapEffect(Effect.map(config, BalanceSync.layer))
}
