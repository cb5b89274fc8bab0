import {
  Chain,
  Confirmations,
  IntegrityCheck,
  type Network,
  Scanner,
  ScannerLoop,
  type ScannerLoopSettings,
  type ScannerSettings
} from "@collector/core"
import { type NodeConfig, TronNodeChain } from "@collector/tron-node"
import { FetchHttpClient } from "@effect/platform"
import { Effect, Layer } from "effect"

export interface NetworkWorkerSettings {
  readonly node: NodeConfig
  readonly scanner: ScannerSettings
  readonly loop: ScannerLoopSettings
}

/** The layers of one network: its node adapter and the scanner built on it. */
export const networkLayer = (settings: NetworkWorkerSettings) => {
  const chain = Layer.effect(Chain, TronNodeChain.make(settings.node)).pipe(Layer.provide(FetchHttpClient.layer))
  const parts = Layer.mergeAll(
    Scanner.layer(settings.scanner),
    Confirmations.layer,
    IntegrityCheck.layer(settings.scanner.fetchConcurrency)
  ).pipe(Layer.provideMerge(chain))
  return ScannerLoop.layer(settings.loop).pipe(Layer.provideMerge(parts))
}

/** Runs one network's scanner until interrupted; `holder` names this process in the lease. */
export const runNetwork = (network: Network, holder: string, settings: NetworkWorkerSettings) =>
  Effect.flatMap(ScannerLoop, (loop) => loop.run(network, holder)).pipe(
    Effect.provide(networkLayer(settings)),
    Effect.annotateLogs({ network, component: "scanner" })
  )
