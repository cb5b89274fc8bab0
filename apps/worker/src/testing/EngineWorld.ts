import { Engine } from "@collector/core"
import { eagerScannerLoopSettings, eagerSweeperSettings } from "@collector/core/testing"
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

/** The engine's settings in these tests: short waits, small batches. */
export const testEngineSettings: Engine.EngineSettings = {
  ...Engine.defaultEngineSettings,
  scanner: { batchBlocks: 10, fetchConcurrency: 4 },
  loop: eagerScannerLoopSettings,
  sweeper: eagerSweeperSettings,
  processName: "test"
}

/** No provider on the network: every rental is refused. */
export const noProvider = (): EnergyProviderSettings => ({ kind: "none", network: "nile" })

/**
 * The real engine of nile as the worker assembles it (PostgreSQL storage on a fresh database, the
 * node adapter, the local signer), over the simulator through HTTP, with the energy provider
 * `provider` gives for the simulator's URL. The engine's ports stay visible to the tests.
 */
export const engineWorld = (provider: (simUrl: string) => EnergyProviderSettings, settings: Engine.EngineSettings = testEngineSettings) =>
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
      return Engine.Engine.layer("nile", settings).pipe(
        Layer.provideMerge(WorkerProcess.networkAdapters({ node, energyProvider: provider(sim.url) }, FetchHttpClient.layer)),
        Layer.merge(Layer.succeed(Sim, sim))
      )
    })
  ).pipe(
    Layer.provideMerge(WorkerProcess.sharedAdapters({ allowPrivateTargets: false })),
    Layer.provideMerge(MasterKeyring.layer({ current: MasterKey.unsafeMake(masterKeyBytes) })),
    Layer.provideMerge(TestDatabaseLive)
  )
