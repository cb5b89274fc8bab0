import { type Config, Context, Effect, Layer, Random } from "effect"
import { BalanceSync } from "../balances/BalanceSync.js"
import type { Network } from "../kernel/Network.js"
import type { Chain } from "../chain/Chain.js"
import type { DelegationLedger } from "../delegation/DelegationLedger.js"
import { bookFees } from "../fees/FeeBooking.js"
import type { FeeLedger } from "../fees/FeeLedger.js"
import type { SweepRepository } from "../sweeps/SweepRepository.js"
import { feeBookingBatch, feeBookingLoop } from "../fees/FeeBookingLoop.js"
import { Dispatcher } from "../notifications/Dispatcher.js"
import { engineComponents } from "./EngineComponents.js"
import { restarting } from "./Restarting.js"
import { OutboxSignal } from "../notifications/OutboxSignal.js"
import { Confirmations } from "../scanning/Confirmations.js"
import { IntegrityCheck } from "../scanning/IntegrityCheck.js"
import { Scanner } from "../scanning/Scanner.js"
import { ScannerLoop } from "../scanning/ScannerLoop.js"
import { Automation } from "../sweeps/Automation.js"
import { ReclaimLoop } from "../delegation/ReclaimLoop.js"
import { Sweeper } from "../sweeps/Sweeper.js"
import { Sweeps } from "../sweeps/Sweeps.js"
import { SweepSettings } from "../sweeps/SweepSettings.js"
import * as SingleNetworkResources from "../sweeps/SingleNetworkResources.js"
import { defaultEngineSettings, engineConfig, type EngineSettings } from "./EngineSettings.js"

/** The loops of one network, each built from its settings; they need the ports in context. */
const loops = (settings: EngineSettings) => {
  const checkpoint = settings.checkpoint
  return Layer.mergeAll(
    ScannerLoop.layer(settings.loop).pipe(
      Layer.provide(Layer.mergeAll(Scanner.layer(settings.scanner), Confirmations.layer, IntegrityCheck.layer(settings.scanner.fetchConcurrency, settings.scanner.depositMinimum)))
    ),
    BalanceSync.layer(settings.balances),
    Sweeper.layer(settings.sweeper, checkpoint),
    ReclaimLoop.layer(settings.reclaim),
    Automation.layer(settings.automation, checkpoint).pipe(
      Layer.provide(Sweeps.layer),
      Layer.provide(Layer.merge(SingleNetworkResources.layer, SweepSettings.layer(settings.sweeps)))
    ),
    Dispatcher.layer(checkpoint === undefined ? settings.dispatcher : { ...settings.dispatcher, checkpoint })
  ).pipe(
    // One per engine: the scanner raises it, the notifier waits on it.
    Layer.provide(OutboxSignal.layer)
  )
}

const make = (network: Network, processName: string) =>
  Effect.gen(function*() {
    const scanner = yield* ScannerLoop
    const balances = yield* BalanceSync
    const sweeper = yield* Sweeper
    const automation = yield* Automation
    const dispatcher = yield* Dispatcher
    // The fee booking pass reads these ports as it runs; taken here, as the loops take theirs when built.
    const feePorts = yield* Effect.context<Chain | FeeLedger | SweepRepository | DelegationLedger>()
    const reclaim = yield* ReclaimLoop
    // Two engines of one process (two networks, or a test's second engine) never share a name.
    const suffix = (yield* Random.nextIntBetween(0, 0x1_0000_0000)).toString(16).padStart(8, "0")
    const holder = `${processName}/${suffix}`

    /**
     * The scanner holds the network's lease, so one engine across all processes scans it; balance
     * sync, the sweeper, the automation and the notifier run in every engine, sharing the work by
     * claims with SKIP LOCKED and leases.
     */
    const run = Effect.all([
      restarting(engineComponents.scanner, network, scanner.run(network, holder)).pipe(Effect.annotateLogs({ component: engineComponents.scanner })),
      restarting(engineComponents.balanceSync, network, balances.run(network)).pipe(Effect.annotateLogs({ component: engineComponents.balanceSync })),
      restarting(engineComponents.sweeper, network, sweeper.run(network, holder)).pipe(Effect.annotateLogs({ component: engineComponents.sweeper })),
      restarting(engineComponents.reclaim, network, reclaim.run(network)).pipe(Effect.annotateLogs({ component: engineComponents.reclaim })),
      restarting(engineComponents.automation, network, automation.run(network)).pipe(Effect.annotateLogs({ component: engineComponents.automation })),
      restarting(engineComponents.notifier, network, dispatcher.run(network, holder)),
      restarting(engineComponents.feeBooking, network, feeBookingLoop(network).pipe(Effect.provide(feePorts))).pipe(
        Effect.annotateLogs({ component: engineComponents.feeBooking })
      )
    ], { concurrency: "unbounded", discard: true }).pipe(Effect.zipRight(Effect.never), Effect.annotateLogs({ network }))

    return {
      network,
      holder,
      run,
      scanOnce: scanner.pass(network),
      syncBalancesOnce: balances.syncBatch(network),
      sweepOnce: sweeper.pass(network, holder),
      reclaimOnce: reclaim.pass(network),
      automateOnce: automation.tick(network),
      notifyOnce: dispatcher.dispatchOnce(network, holder),
      bookFeesOnce: bookFees(network, feeBookingBatch).pipe(Effect.provide(feePorts))
    }
  })

/**
 * The engine of one network: the scanner (with confirmations, the integrity check and pruning),
 * balance sync, the sweeper, the automation scheduler and the notifier, built from the ports in
 * context (storage, the network's `Chain` and `EnergyProvider`, `Signer`, `SecretBox`,
 * `WebhookTargets`, `DeliveryTransport`, `EnvelopeSealer`, `ComponentStatus`). `run` runs them
 * all until interrupted; each `...Once` is one pass of one loop, for tests and for embedders
 * that schedule the work themselves. What a loop keeps between passes (when the scanner's next
 * integrity check is due, the last wallet it knew of, the engine's holder name) lives here.
 *
 * - `scanOnce`: one scanner pass (blocks, confirmations and reverts, the integrity check when
 *   due and for new wallets, pruning, the heartbeat); whether the head was reached. It does not
 *   take the network's lease: the cursor's compare-and-set keeps a concurrent scanner's work and
 *   this pass apart (`CursorMoved`).
 * - `syncBalancesOnce`: one batch of balance sync.
 * - `sweepOnce`: one claim of due sweep tasks, one step each.
 * - `reclaimOnce`: one pass taking back the own stake's energy lent to finished sweeps.
 * - `automateOnce`: one tick of the automation scheduler (the rounds of due scopes).
 * - `notifyOnce`: one claim of due webhook events, delivered and recorded; how many were handled.
 * - `bookFeesOnce`: one fee booking pass (finished tasks into the fee ledger); how many were booked.
 */
export class Engine extends Context.Tag("@collector/core/Engine")<Engine, Effect.Effect.Success<ReturnType<typeof make>>>() {
  static readonly layer = (network: Network, settings: EngineSettings = defaultEngineSettings) =>
    Layer.effect(Engine, make(network, settings.processName)).pipe(Layer.provide(loops(settings)))

  /** With the settings of `config` (by default the variables of `engineConfig`). */
  static readonly layerConfig = (network: Network, config: Config.Config<EngineSettings> = engineConfig) =>
    Layer.unwrapEffect(Effect.map(config, (settings) => Engine.layer(network, settings)))
}
