import { balanceSyncConfigFromEnv, SweepSettings } from "@collector/core"
import { describeSettings, energyProviderSettings, layerFromSettings } from "@collector/energy"
import { FetchHttpClient } from "@effect/platform"
import {
  PgAutomationLedger,
  PgBalanceLedger,
  PgComponentStatus,
  PgDepositBook,
  PgScanLedger,
  PgSettingsRepository,
  PgSweepRepository,
  PgWalletRepository
} from "@collector/postgres"
import { LocalSigner } from "@collector/tron"
import { AesGcmSecretBox } from "@collector/vault"
import type { Network } from "@collector/core"
import { type NodeConfig, nodeConfigFromEnv } from "@collector/tron-node"
import { type ConfigError, Effect, Layer } from "effect"
import { randomBytes } from "node:crypto"
import { hostname } from "node:os"
import { runNetwork } from "./NetworkWorker"
import { DispatcherLive } from "./NotifierLive"
import { automationConfigFromEnv } from "./AutomationConfig"
import { checkpointFor, crashPointFromEnv } from "./CrashPoint"
import { scannerConfigFromEnv } from "./ScannerConfig"
import { sweeperConfigFromEnv } from "./SweeperConfig"
import { workerNetworksFromEnv } from "./WorkerNetworks"

/** Storage for everything the worker runs; needs a SqlClient (DatabaseLive or a test database). */
export const WorkerStorage = Layer.mergeAll(
  PgScanLedger.layer,
  PgDepositBook.layer,
  PgComponentStatus.layer,
  PgBalanceLedger.layer,
  PgSweepRepository.layer,
  PgSettingsRepository.layer,
  PgWalletRepository.layer,
  PgAutomationLedger.layer
)

/** Wallet keys are opened under the master key, one signature at a time. */
const SignerLive = LocalSigner.layer.pipe(Layer.provide(AesGcmSecretBox.layer))

/**
 * The worker's loops, one set per network in `WORKER_NETWORKS`, each on its own fiber for the
 * life of the layer. Settings are read and checked before anything starts. Needs the
 * MasterKeyring: the notifier opens each app's sealed webhook key, the sweeper's signer each
 * wallet's key.
 */
export const workerLoops = (nodeFor: (network: Network) => Effect.Effect<NodeConfig, ConfigError.ConfigError> = nodeConfigFromEnv) =>
  Layer.scopedDiscard(Effect.gen(function*() {
    const networks = yield* workerNetworksFromEnv
    const { scanner, loop } = yield* scannerConfigFromEnv
    const balances = yield* balanceSyncConfigFromEnv
    const sweeper = yield* sweeperConfigFromEnv
    const automation = yield* automationConfigFromEnv
    const checkpoint = checkpointFor(yield* crashPointFromEnv)
    const nodes = yield* Effect.forEach(networks, nodeFor)
    // Names this process in the scanner leases (and in the logs of whoever waits on them).
    const holder = `${hostname()}/${process.pid}/${randomBytes(4).toString("hex")}`
    for (const node of nodes) {
      // Read and checked here, before anything starts, like every other setting.
      const providerSettings = yield* energyProviderSettings(node.network)
      const energyProvider = layerFromSettings(providerSettings).pipe(Layer.provide(FetchHttpClient.layer))
      yield* Effect.forkScoped(
        runNetwork(node.network, holder, { node, scanner, loop, balances, sweeper, automation, energyProvider, ...(checkpoint ? { checkpoint } : {}) })
      )
      yield* Effect.log("watching network").pipe(
        Effect.annotateLogs({
          network: node.network,
          node: node.fullNodeUrl,
          usdt_contract: node.usdtContract,
          energy_provider: describeSettings(providerSettings),
          holder
        })
      )
    }
  })).pipe(Layer.provide(Layer.mergeAll(WorkerStorage, DispatcherLive, SignerLive, SweepSettings.layerFromEnv)))

export const WorkerLoops = workerLoops()
