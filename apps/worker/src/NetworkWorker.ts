import {
  type AutomationSettings,
  type Checkpoint,
  EnergyProvider,
  makeAutomation,
  makeSweeper,
  type SweeperSettings,
  Sweeps,
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
import { Dispatcher } from "@collector/core"
import { type NodeConfig, TronNodeChain } from "@collector/tron-node"
import { FetchHttpClient, type HttpClient } from "@effect/platform"
import { type ConfigError, Effect, Layer } from "effect"
import { nodeHttpClient } from "./NodeHttp"
import { SingleNetworkResources } from "./SingleNetworkResources"

export interface NetworkWorkerSettings {
  readonly node: NodeConfig
  readonly scanner: ScannerSettings
  readonly loop: ScannerLoopSettings
  readonly balances: BalanceSyncSettings
}

/** What the sweeper and the automation of a network need beyond the node. */
export interface SweepWorkerSettings {
  readonly sweeper: SweeperSettings
  readonly automation: AutomationSettings
  readonly energyProvider: Layer.Layer<EnergyProvider, ConfigError.ConfigError>
  /** The crash tests' fault injection; absent in production. */
  readonly checkpoint?: Checkpoint
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
    BalanceSync.layer.pipe(Layer.provide(BalanceSyncConfig.layer(settings.balances)))
  ).pipe(Layer.provideMerge(chain))
  return ScannerLoop.layer(settings.loop).pipe(Layer.provideMerge(parts))
}

/**
 * Runs one network's loops until interrupted: the scanner (one per network across all workers,
 * by lease; `holder` names this process in it), balance sync, the notifier, the sweeper and the
 * automation scheduler (these three in every worker: claims with SKIP LOCKED share the work, so
 * they need no lease; `holder` names this process in the sweeper's claims). The node is spoken to
 * with node:http over kept connections (`nodeHttpClient`), which costs about a quarter less CPU
 * per call than fetch here (bench:sweeps).
 */
export const runNetwork = (
  network: Network,
  holder: string,
  settings: NetworkWorkerSettings & SweepWorkerSettings,
  http: Layer.Layer<HttpClient.HttpClient> = nodeHttpClient()
) =>
  Effect.all([
    Effect.all([
      Effect.flatMap(ScannerLoop, (loop) => loop.run(network, holder)).pipe(Effect.annotateLogs({ component: "scanner" })),
      Effect.flatMap(BalanceSync, (sync) => sync.run(network)).pipe(Effect.annotateLogs({ component: "balance_sync" })),
      Effect.flatMap(makeSweeper(network, holder, settings.sweeper, settings.checkpoint), (sweeper) => sweeper.run).pipe(
        Effect.annotateLogs({ component: "sweeper" })
      ),
      Effect.flatMap(makeAutomation(network, settings.automation, settings.checkpoint), (automation) => automation.run).pipe(
        Effect.annotateLogs({ component: "automation" })
      )
    ], { concurrency: "unbounded", discard: true }).pipe(
      Effect.provide(Sweeps.layer.pipe(Layer.provideMerge(SingleNetworkResources))),
      Effect.provide(settings.energyProvider),
      Effect.provide(networkLayer(settings, http))
    ),
    Effect.flatMap(Dispatcher, (dispatcher) => dispatcher.run(network, holder))
  ], { concurrency: "unbounded", discard: true }).pipe(Effect.annotateLogs({ network }))
