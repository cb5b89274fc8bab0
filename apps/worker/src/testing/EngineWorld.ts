import { defaultEngineSettings, Engine, type EngineSettings } from "@collector/core"
import type { EnergyProviderSettings } from "@collector/energy"
import { TestDatabaseLive } from "@collector/postgres/testing"
import { WorkerProcess } from "@collector/server"
import { defaultNodeConfig } from "@collector/tron-node"
import { startSimNode } from "@collector/tron-sim/testing"
import { MasterKey, MasterKeyring } from "@collector/vault"
import { FetchHttpClient } from "@effect/platform"
import { Context, Duration, Effect, Layer } from "effect"

/** The simulated node a test drives (manual blocks). */
export class Sim extends Context.Tag("test/Sim")<Sim, Effect.Effect.Success<ReturnType<typeof startSimNode>>>() {}

/** The master key the engine's wallet and webhook keys are sealed under (MASTER_KEY of worker processes too). */
export const masterKeyBytes = Buffer.alloc(32, 9)

/** Every sweeper wait zero: each pass looks at every unfinished task, so a test advances it by passes and blocks. */
export const eagerSweeper: EngineSettings["sweeper"] = {
  batchSize: 1000,
  concurrency: 8,
  leaseTtl: Duration.seconds(30),
  idleInterval: Duration.millis(10),
  settleDelay: Duration.zero,
  settleInterval: Duration.zero,
  bandwidthInterval: Duration.zero,
  rentalInterval: Duration.zero,
  retryInterval: Duration.zero,
  rebroadcastInterval: Duration.zero,
  expiryMargin: Duration.seconds(3),
  minimumValidity: Duration.seconds(5),
  transactionValidity: Duration.seconds(90)
}

/** The engine's settings in these tests: short waits, small batches. */
export const testEngineSettings: EngineSettings = {
  ...defaultEngineSettings,
  scanner: { batchBlocks: 10, fetchConcurrency: 4 },
  loop: {
    pollInterval: Duration.millis(50),
    leaseTtl: Duration.seconds(5),
    batchesPerPass: 1000,
    integrityInterval: Duration.hours(1),
    integrityWindow: 50n,
    retainedBlocks: 100n,
    failureBackoff: Duration.millis(50)
  },
  sweeper: eagerSweeper,
  processName: "test"
}

/** No provider on the network: every rental is refused. */
export const noProvider = (): EnergyProviderSettings => ({ kind: "none", network: "nile" })

/**
 * The real engine of nile as the worker assembles it (PostgreSQL storage on a fresh database, the
 * node adapter, the local signer), over the simulator through HTTP, with the energy provider
 * `provider` gives for the simulator's URL. The engine's ports stay visible to the tests.
 */
export const engineWorld = (provider: (simUrl: string) => EnergyProviderSettings, settings: EngineSettings = testEngineSettings) =>
  Layer.unwrapScoped(
    Effect.gen(function*() {
      const sim = yield* startSimNode()
      const node = defaultNodeConfig("nile", {
        fullNodeUrl: sim.url,
        solidityUrl: sim.url,
        requestTimeout: Duration.seconds(2),
        retries: 0,
        requestsPerSecond: 10_000
      })
      return Engine.layer("nile", settings).pipe(
        Layer.provideMerge(WorkerProcess.networkAdapters({ node, energyProvider: provider(sim.url) }, FetchHttpClient.layer)),
        Layer.merge(Layer.succeed(Sim, sim))
      )
    })
  ).pipe(
    Layer.provideMerge(WorkerProcess.sharedAdapters({ allowPrivateTargets: false })),
    Layer.provideMerge(MasterKeyring.layer({ current: MasterKey.unsafeMake(masterKeyBytes) })),
    Layer.provideMerge(TestDatabaseLive)
  )
