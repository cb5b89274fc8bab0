import type { Kernel } from "@collector/core"
import { failoverNodeChain, nodeConfigs, nodeFailoverConfig } from "@collector/tron-node"
import { FetchHttpClient } from "@effect/platform"
import { Effect } from "effect"
import { UsageError } from "../CliError.js"

/**
 * The network's chain as the worker builds it: the nodes of TRON_<NETWORK>_NODE_URL(S) (and
 * their solidity URLs) failing over by the same settings, so the CLI talks to the nodes the
 * service trusts. A malformed setting is a usage error, exit 2.
 */
export const networkChain = (network: Kernel.Network) =>
  Effect.gen(function*() {
    const nodes = yield* nodeConfigs(network).pipe(Effect.mapError((error) => new UsageError({ message: String(error) })))
    const options = yield* nodeFailoverConfig.pipe(Effect.mapError((error) => new UsageError({ message: String(error) })))
    const { chain } = yield* failoverNodeChain(nodes, options).pipe(Effect.provide(FetchHttpClient.layer))
    return chain
  })
