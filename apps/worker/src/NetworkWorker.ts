import {
  BalanceSync,
  BalanceSyncConfig,
  type BalanceSyncSettings,
  Chain,
  Confirmations,
  IntegrityCheck,
  type Network,
  Scanner,
  ScannerLoop,
  type ScannerLoopSettings,
  type ScannerSettings
} from "@collector/core"
import { Dispatcher } from "@collector/core/notifications/Dispatcher"
import { type NodeConfig, TronNodeChain } from "@collector/tron-node"
import { FetchHttpClient, type HttpClient } from "@effect/platform"
import { Effect, Layer } from "effect"

export interface NetworkWorkerSettings {
  readonly node: NodeConfig
  readonly scanner: ScannerSettings
  readonly loop: ScannerLoopSettings
  readonly balances: BalanceSyncSettings
}

/**
 * The layers of one network: its node adapter and the loops built on it. The adapter speaks
 * through Effect's fetch client unless told otherwise (msw intercepts fetch in tests).
 */
export const networkLayer = (
  settings: NetworkWorkerSettings,
  http: Layer.Layer<HttpClient.HttpClient> = FetchHttpClient.layer
) => {
  const chain = Layer.effect(Chain, TronNodeChain.make(settings.node)).pipe(Layer.provide(http))
  const parts = Layer.mergeAll(
    Scanner.layer(settings.scanner),
    Confirmations.layer,
    IntegrityCheck.layer(settings.scanner.fetchConcurrency),
    BalanceSync.Default.pipe(Layer.provide(BalanceSyncConfig.layer(settings.balances)))
  ).pipe(Layer.provideMerge(chain))
  return ScannerLoop.layer(settings.loop).pipe(Layer.provideMerge(parts))
}

/**
 * Runs one network's loops until interrupted: the scanner (one per network across all workers,
 * by lease; `holder` names this process in it), balance sync, and the notifier (in every
 * worker: claims with SKIP LOCKED share the deliveries, so it needs no lease).
 */
export const runNetwork = (network: Network, holder: string, settings: NetworkWorkerSettings) =>
  Effect.all([
    Effect.all([
      Effect.flatMap(ScannerLoop, (loop) => loop.run(network, holder)).pipe(Effect.annotateLogs({ component: "scanner" })),
      Effect.flatMap(BalanceSync, (sync) => sync.run(network)).pipe(Effect.annotateLogs({ component: "balance_sync" }))
    ], { concurrency: "unbounded", discard: true }).pipe(Effect.provide(networkLayer(settings))),
    Effect.flatMap(Dispatcher, (dispatcher) => dispatcher.run(network, holder))
  ], { concurrency: "unbounded", discard: true }).pipe(Effect.annotateLogs({ network }))
