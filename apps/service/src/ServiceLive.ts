import { apiProcessLayer, DataDirConfig } from "@collector/server"
import type { Network } from "@collector/core"
import { DatabaseLive, PgScanLedger } from "@collector/postgres"
import { defaultNodeConfig, nodeConfigFromEnv } from "@collector/tron-node"
import { MasterKeyring } from "@collector/vault"
import { workerLoops, WorkerLoops } from "@collector/worker"
import { Config, Effect, Layer, Option } from "effect"
import { SimulatedNile, SimulatedNileLive } from "./SimulatedNile"

/**
 * Everything in one process: the API server and the worker on one database. Without
 * `TRON_NILE_NODE_URL` the `nile` network is the simulated node, started here, so that a fresh
 * machine can create a wallet, send it USDT through the simulator and see the deposit.
 */
export const ServiceLive = Layer.unwrapEffect(
  Effect.gen(function*() {
    const dataDir = yield* DataDirConfig
    const nileUrl = yield* Config.option(Config.string("TRON_NILE_NODE_URL"))
    const database = DatabaseLive(dataDir)
    // The worker's notifier opens webhook keys with the same master key the API seals them with.
    const keyring = MasterKeyring.layerFromConfig(dataDir)
    if (Option.isSome(nileUrl)) return Layer.merge(apiProcessLayer(dataDir), WorkerLoops.pipe(Layer.provide(keyring))).pipe(Layer.provide(database))
    // The API's sweep estimate and the worker read the same simulated node for nile.
    const simulated = Layer.unwrapEffect(
      Effect.map(SimulatedNile, ({ url }) => {
        const nodeFor = (network: Network) =>
          network === "nile"
            ? Effect.succeed(defaultNodeConfig("nile", { fullNodeUrl: url, solidityUrl: url, requestsPerSecond: 100 }))
            : nodeConfigFromEnv(network)
        return Layer.merge(apiProcessLayer(dataDir, { nodeFor }), workerLoops(nodeFor).pipe(Layer.provide(keyring)))
      })
    ).pipe(Layer.provide(SimulatedNileLive), Layer.provide(PgScanLedger.layer))
    return simulated.pipe(Layer.provide(database))
  })
)
