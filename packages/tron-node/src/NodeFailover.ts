import { Chain } from "@collector/core"
import type { HttpClient } from "@effect/platform"
import { Effect } from "effect"
import type { NodeConfig } from "./NodeConfig.js"
import { nodeLabel } from "./NodeList.js"
import * as TronNodeChain from "./TronNodeChain.js"

/**
 * The Chain of a network over its nodes (`nodeConfigs`), each through its own adapter (its own
 * connections and request budget), failing over by the core's rule (`failoverChain`). With one
 * node, that node's adapter as before.
 */
export const failoverNodeChain = (
  nodes: ReadonlyArray<NodeConfig>,
  options: Chain.FailoverChainOptions = Chain.defaultFailoverChainOptions
): Effect.Effect<Chain.FailoverChain, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    if (nodes.length === 0) return yield* Effect.dieMessage("a network needs at least one node")
    const chains = yield* Effect.forEach(nodes, (node, i) => Effect.map(TronNodeChain.make(node), (chain) => ({ name: nodeLabel(i, node), chain })))
    return yield* Chain.failoverChain(nodes[0]!.network, chains, options)
  })
