import { NodeHttpServer } from "@effect/platform-node"
import { Chain, Energy, type Kernel, Sweeps } from "@collector/core"
import { AccessLog, apiLayerWith, Gate, type HandlerOverrides } from "@collector/http-server"
import { Effect, Layer } from "effect"
import type { SimulatedNetwork } from "../SimulatedNetwork.js"
import * as InProcessServer from "./InProcessServer.js"
import { TenantClient } from "./TenantClient.js"

/** Each network's node and provider adapters, as the API's sweep estimate reaches them by network. */
const resourcesOf = (networks: ReadonlyArray<SimulatedNetwork>) =>
  Effect.gen(function*() {
    const found = new Map<Kernel.Network, { readonly chain: Chain.Chain["Type"]; readonly provider: Energy.EnergyProvider["Type"] }>()
    for (const network of networks) {
      const [chain, provider] = yield* Effect.all([Chain.Chain, Energy.EnergyProvider]).pipe(Effect.provide(network.adapters))
      found.set(network.network, { chain, provider })
    }
    return Sweeps.NetworkResources.of({
      chain: (network) => Effect.succeed(found.get(network)!.chain),
      energyProvider: (network) => Effect.succeed(found.get(network)!.provider)
    })
  })

/**
 * The API service of a run in this process: the http-server's gate, handlers and their
 * idempotency wrappers (`apiLayerWith`, with a plant's `overrides`) over the run's store,
 * secrets and entropy and each network's adapters, served on an in-process server. The access log
 * is dropped (the gate writes it only when logs are on); the gate has the contract's default
 * limits. Built in the run's scope, so the requests run on the run's clock and scheduler.
 */
export const make = (networks: ReadonlyArray<SimulatedNetwork>, overrides: HandlerOverrides) =>
  Effect.gen(function*() {
    const server = yield* InProcessServer.make
    const resources = yield* resourcesOf(networks)
    const api = apiLayerWith(overrides).pipe(
      Layer.provide(server.layer),
      Layer.provide(NodeHttpServer.layerContext),
      Layer.provide(Layer.succeed(Sweeps.NetworkResources, resources)),
      Layer.provide(Gate.layer()),
      Layer.provide(AccessLog.to(() => {}))
    )
    yield* Layer.build(api)
    return new TenantClient(server)
  })
