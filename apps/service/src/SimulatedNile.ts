import { Scanning } from "@collector/core"
import { defaultSimConfig, SimHttp, simServerConfig } from "@collector/tron-sim"
import { Context, Effect, Layer } from "effect"

export class SimulatedNile extends Context.Tag("@collector/service/SimulatedNile")<SimulatedNile, { readonly url: string }>() {}

// The simulator's first block when nothing was scanned before (its own default).
const firstGenesis = 1_000_000n

/**
 * The simulated node serving as the `nile` network of an embedded service. Its chain lives in
 * memory, so each start replaces the chain (`replaceChain` says where the new one begins).
 */
export const SimulatedNileLive = Layer.scoped(
  SimulatedNile,
  Effect.gen(function*() {
    const { blockMs, host, port, seed } = yield* simServerConfig
    const genesisNumber = yield* Scanning.replaceChain("nile", firstGenesis)
    const chain = defaultSimConfig("nile", { seed, genesisNumber, ...(blockMs > 0 ? { blockIntervalMs: blockMs } : {}) })
    const server = yield* SimHttp.start({ chain, port, host, blocks: blockMs > 0 ? "timer" : "manual" })
    yield* Effect.log(
      `nile is the simulated TRON node at ${server.url} (control API: POST ${server.url}/sim/*, see docs/devchain.md); set TRON_NILE_NODE_URL to use a real node`
    )
    return { url: server.url }
  })
)
