import type { Kernel } from "@collector/core"
import { databaseConfig, PgScanLedger } from "@collector/postgres"
import { ApiProcess, processStorage, WorkerProcess } from "@collector/server"
import { defaultNodeConfig, nodeConfigs, nodeConfigured } from "@collector/tron-node"
import { simServerConfig } from "@collector/tron-sim"
import { Effect, Layer } from "effect"
import { SimulatedNile, SimulatedNileLive } from "./SimulatedNile.js"

/** The simulated node as the `nile` network's node. */
const simulatedNileNode = (url: string) => defaultNodeConfig("nile", { fullNodeUrl: url, solidityUrl: url, requestsPerSecond: 100 })

/** Whether a nile node is configured (`TRON_NILE_NODE_URL` or the list `TRON_NILE_NODE_URLS`): without one, nile is simulated. */
const nileNodeSet = nodeConfigured("nile")

/** The service's start line: the API's port, the networks and their nodes, the storage. */
export const describeService = Effect.gen(function*() {
  const nileUrl = yield* nileNodeSet
  const sim = yield* simServerConfig
  const api = yield* ApiProcess.describe
  const worker = yield* WorkerProcess.describe
  const simulated = !nileUrl && worker.networks.split(",").includes("nile")
  return { ...api, ...worker, ...(simulated ? { nodes: worker.nodes.replace(/nile=\S+/, `nile=simulated at http://${sim.host}:${sim.port}`) } : {}) }
})

/**
 * Everything in one process: the API server and the worker on one database. Without
 * `TRON_NILE_NODE_URL` the `nile` network is the simulated node, started here, so that a fresh
 * machine can create a wallet, send it USDT through the simulator and see the deposit.
 */
export const ServiceLive = Layer.unwrapEffect(
  Effect.gen(function*() {
    const nileUrl = yield* nileNodeSet
    yield* ApiProcess.checkSettings
    const apiSettings = yield* ApiProcess.config
    const worker = yield* WorkerProcess.config
    // Every setting is read before the database is touched. The worker's notifier opens webhook
    // keys with the same master key the API seals them with.
    const shared = processStorage(yield* databaseConfig)
    // One set of operator endpoints for the process: the worker's, whose readiness covers the
    // database as the API's would, and the engines besides.
    const api = { port: apiSettings.port }
    if (nileUrl) return Layer.merge(ApiProcess.layer(api), WorkerProcess.layer(worker)).pipe(Layer.provide(shared))
    // The API's sweep estimate and the worker read the same simulated node for nile.
    const simulated = Layer.unwrapEffect(
      Effect.map(SimulatedNile, ({ url }) => {
        const nodesFor = (network: Kernel.Network) => network === "nile" ? Effect.succeed([simulatedNileNode(url)]) : nodeConfigs(network)
        const onSimulatedNile = {
          ...worker,
          networks: worker.networks.map((network) => network.node.network === "nile" ? { ...network, node: simulatedNileNode(url), nodes: undefined } : network)
        }
        return Layer.merge(ApiProcess.layer(api, { nodesFor }), WorkerProcess.layer(onSimulatedNile))
      })
    ).pipe(Layer.provide(SimulatedNileLive), Layer.provide(PgScanLedger.layer))
    return simulated.pipe(Layer.provide(shared))
  })
)
