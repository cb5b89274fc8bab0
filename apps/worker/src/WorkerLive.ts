import { balanceSyncConfigFromEnv } from "@collector/core"
import { PgBalanceLedger, PgComponentStatus, PgDepositBook, PgScanLedger } from "@collector/postgres"
import type { Network } from "@collector/core"
import { type NodeConfig, nodeConfigFromEnv } from "@collector/tron-node"
import { type ConfigError, Effect, Layer } from "effect"
import { randomBytes } from "node:crypto"
import { hostname } from "node:os"
import { runNetwork } from "./NetworkWorker"
import { DispatcherLive } from "./NotifierLive"
import { scannerConfigFromEnv } from "./ScannerConfig"
import { workerNetworksFromEnv } from "./WorkerNetworks"

/** Storage for everything the worker runs; needs a SqlClient (DatabaseLive or a test database). */
export const WorkerStorage = Layer.mergeAll(PgScanLedger, PgDepositBook, PgComponentStatus, PgBalanceLedger)

/**
 * The worker's loops, one set per network in `WORKER_NETWORKS`, each on its own fiber for the
 * life of the layer. Settings are read and checked before anything starts. Needs the
 * MasterKeyring: the notifier opens each app's sealed webhook key.
 */
export const workerLoops = (nodeFor: (network: Network) => Effect.Effect<NodeConfig, ConfigError.ConfigError> = nodeConfigFromEnv) =>
  Layer.scopedDiscard(Effect.gen(function*() {
    const networks = yield* workerNetworksFromEnv
    const { scanner, loop } = yield* scannerConfigFromEnv
    const balances = yield* balanceSyncConfigFromEnv
    const nodes = yield* Effect.forEach(networks, nodeFor)
    // Names this process in the scanner leases (and in the logs of whoever waits on them).
    const holder = `${hostname()}/${process.pid}/${randomBytes(4).toString("hex")}`
    for (const node of nodes) {
      yield* Effect.forkScoped(runNetwork(node.network, holder, { node, scanner, loop, balances }))
      yield* Effect.log("watching network").pipe(
        Effect.annotateLogs({ network: node.network, node: node.fullNodeUrl, usdt_contract: node.usdtContract, holder })
      )
    }
  })).pipe(Layer.provide(Layer.merge(WorkerStorage, DispatcherLive)))

export const WorkerLoops = workerLoops()
