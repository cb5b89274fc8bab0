import { Cause, Clock, Context, Duration, Effect, Either, Layer, Option } from "effect"
import type { ChainService } from "../chain/Chain.js"
import type { Network } from "../kernel/Network.js"
import { ScanLedger } from "../scanning/ScanLedger.js"
import { StorageProbe } from "../storage/StorageProbe.js"
import { apiComponent, DatabaseWaits } from "./DatabaseWaits.js"
import { Heartbeats } from "./Heartbeats.js"
import type { ProviderStanding } from "../energy/EnergyProvider.js"
import { databaseCheck, databaseWaitCheck, heartbeatCheck, nodeCheck, providersCheck, type ReadinessCheck, readinessOf, type ReadinessReport, scanLagCheck } from "./ReadinessRules.js"
import { defaultReadinessSettings, type ReadinessSettings } from "./ReadinessSettings.js"

/** A network an engine of this process serves, with the node it reads. */
export interface ReadinessNetwork {
  readonly network: Network
  readonly chain: ChainService
  /** With several nodes: how many serve now, out of how many (`ChainNodes`), said in the node check. */
  readonly nodes?: Effect.Effect<{ readonly healthy: number; readonly total: number }>
  /** With several energy providers: each one's standing, said in its own line (never unready). */
  readonly providers?: Effect.Effect<ReadonlyArray<ProviderStanding>>
}

/** The loops whose heartbeats make a network ready. Balance sync and automation only delay what they do. */
const watchedLoops = ["notifier", "sweeper"] as const

const within = (settings: ReadinessSettings) => {
  const millis = Duration.toMillis(settings.checkTimeout)
  return <A, E>(effect: Effect.Effect<A, E>, describe: (error: E) => string) =>
    effect.pipe(
      Effect.mapError(describe),
      Effect.timeoutFail({ duration: settings.checkTimeout, onTimeout: () => `no answer within ${millis} ms` }),
      // A storage failure is a defect elsewhere; here it is the answer.
      Effect.catchAllDefect((defect) => Effect.fail(Cause.pretty(Cause.die(defect)).split("\n")[0] ?? "failed")),
      Effect.either
    )
}

const databaseAnswer = (settings: ReadinessSettings) =>
  Effect.gen(function*() {
    const probe = yield* StorageProbe
    const started = yield* Clock.currentTimeMillis
    const answer = yield* within(settings)(probe.ping, (error) => `unreachable: ${String(error.cause)}`)
    const finished = yield* Clock.currentTimeMillis
    // The API has no passes of its own to find the database back: were its wait to end only with
    // a request, a balancer that takes an unready API out would keep it out for good.
    if (Either.isRight(answer)) yield* (yield* DatabaseWaits).answered(apiComponent, undefined)
    return Either.map(answer, () => finished - started)
  })

/** Every component of this process that waits for the database, read after the database's own check. */
const waitChecks = Effect.flatMap(DatabaseWaits, (waits) => waits.current).pipe(Effect.map((waits) => waits.map(databaseWaitCheck)))

const networkChecks = (settings: ReadinessSettings, { chain, network, nodes, providers }: ReadinessNetwork) =>
  Effect.gen(function*() {
    const ledger = yield* ScanLedger
    const heartbeats = yield* Heartbeats
    const { cursor, head } = yield* Effect.all({
      head: within(settings)(chain.headBlock, (error) => error.reason),
      cursor: within(settings)(ledger.cursor(network), () => "failed")
    }, { concurrency: "unbounded" })
    const serving = nodes === undefined ? undefined : yield* nodes
    const standings = providers === undefined ? undefined : yield* providers
    const now = yield* Clock.currentTimeMillis
    const maxAge = Duration.toMillis(settings.maxHeartbeatAge)
    return [
      nodeCheck(network, Either.map(head, (block) => block.number), serving),
      scanLagCheck(network, Either.getRight(head).pipe(Option.map((block) => block.number)), Either.map(cursor, Option.map((c) => c.number)), settings.maxScanLagBlocks),
      ...watchedLoops.map((loop) => heartbeatCheck(network, loop, heartbeats.latest(network, loop), now, maxAge)),
      ...(standings === undefined ? [] : [providersCheck(network, standings)])
    ] satisfies ReadonlyArray<ReadinessCheck>
  })

/**
 * Whether this process can do its work now, asked by the operator's `/readyz`. Every check runs
 * on each call, side by side, each within `checkTimeout`.
 */
export class Readiness extends Context.Tag("@collector/core/Readiness")<Readiness, { readonly check: Effect.Effect<ReadinessReport> }>() {
  /**
   * A process without an engine (the API): ready when the store answers and the API does not
   * wait for it (`DatabaseWaits`: requests met it out of reach; its answering ends that). The nodes are not
   * checked: only the sweep estimate reads one, and it reports a node's failure itself, while
   * every other operation works without a node.
   */
  static readonly storage = (settings: ReadinessSettings = defaultReadinessSettings): Layer.Layer<Readiness, never, StorageProbe> =>
    Layer.effect(
      Readiness,
      Effect.map(Effect.context<StorageProbe>(), (context) => ({
        check: Effect.flatMap(databaseAnswer(settings), (answer) => Effect.map(waitChecks, (waiting) => readinessOf([databaseCheck(answer), ...waiting]))).pipe(
          Effect.provide(context)
        )
      }))
    )

  /**
   * A process running engines: ready when the store answers and, for each network, its node
   * answers, the stored scan is at most `maxScanLagBlocks` behind the node's head, no component
   * waits for the store (`DatabaseWaits`: each loop's next pass that reaches it ends its wait), and this
   * process's notifier and sweeper reported within `maxHeartbeatAge` (from `Heartbeats`, which
   * the engines' board must record to: `Heartbeats.recording`).
   */
  static readonly engines = (
    networks: ReadonlyArray<ReadinessNetwork>,
    settings: ReadinessSettings = defaultReadinessSettings
  ): Layer.Layer<Readiness, never, StorageProbe | ScanLedger | Heartbeats> =>
    Layer.effect(
      Readiness,
      Effect.map(Effect.context<StorageProbe | ScanLedger | Heartbeats>(), (context) => ({
        check: Effect.all({
          database: databaseAnswer(settings),
          networks: Effect.forEach(networks, (network) => networkChecks(settings, network), { concurrency: "unbounded" })
        }, { concurrency: "unbounded" }).pipe(
          Effect.flatMap(({ database, networks }) => Effect.map(waitChecks, (waiting) => readinessOf([databaseCheck(database), ...waiting, ...networks.flat()]))),
          Effect.provide(context)
        )
      }))
    )
}
