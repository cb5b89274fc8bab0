import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect } from "effect"
import { defaultNodeConfig } from "./NodeConfig.js"
import { nodeConfigs, nodeFailoverConfig, nodeLabel } from "./NodeList.js"

const provider = (env: Record<string, string>) => ConfigProvider.fromMap(new Map(Object.entries(env)))
const load = (network: "main" | "nile", env: Record<string, string>) => Effect.withConfigProvider(nodeConfigs(network), provider(env))
const urls = (network: "main" | "nile", env: Record<string, string>) =>
  Effect.map(load(network, env), (nodes) => nodes.map((node) => [node.fullNodeUrl, node.solidityUrl]))
const failure = (network: "main" | "nile", env: Record<string, string>) =>
  load(network, env).pipe(Effect.flip, Effect.map((error) => error.toString()))

describe("nodeConfigs", () => {
  it.effect("without a list: the one node of the single-URL settings, as before", () =>
    Effect.gen(function*() {
      expect(yield* load("main", {})).toEqual([defaultNodeConfig("main")])
      expect(yield* urls("nile", { TRON_NILE_NODE_URL: "http://127.0.0.1:8090", TRON_NILE_SOLIDITY_URL: "http://127.0.0.1:8091" })).toEqual([
        ["http://127.0.0.1:8090", "http://127.0.0.1:8091"]
      ])
    }))

  it.effect("a list: each node's solidity API on its own URL unless the parallel list says otherwise", () =>
    Effect.gen(function*() {
      expect(yield* urls("main", { TRON_MAIN_NODE_URLS: "http://127.0.0.1:8090/, https://api.trongrid.io" })).toEqual([
        ["http://127.0.0.1:8090", "http://127.0.0.1:8090"],
        ["https://api.trongrid.io", "https://api.trongrid.io"]
      ])
      expect(yield* urls("nile", {
        TRON_NILE_NODE_URLS: "http://127.0.0.1:8090,https://nile.trongrid.io,https://tron.example:8443",
        TRON_NILE_SOLIDITY_URLS: "http://127.0.0.1:8091,https://nile.trongrid.io,https://tron.example:8444"
      })).toEqual([
        ["http://127.0.0.1:8090", "http://127.0.0.1:8091"],
        ["https://nile.trongrid.io", "https://nile.trongrid.io"],
        ["https://tron.example:8443", "https://tron.example:8444"]
      ])
      // The other settings are the network's, shared by every node.
      const [first, second] = yield* load("nile", { TRON_NILE_NODE_URLS: "https://a.example,https://b.example", TRON_REQUEST_RETRIES: "1" })
      expect([first!.retries, second!.retries, second!.usdtContract]).toEqual([1, 1, "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf"])
    }))

  it.effect("a list of one is the single node", () =>
    Effect.gen(function*() {
      expect(yield* load("main", { TRON_MAIN_NODE_URLS: "https://api.trongrid.io" })).toEqual([defaultNodeConfig("main")])
    }))

  it.effect("bad lists name the variable", () =>
    Effect.gen(function*() {
      expect(yield* failure("main", { TRON_MAIN_NODE_URLS: "https://a.example,b.example" })).toContain(
        "TRON_MAIN_NODE_URLS must be a comma-separated list of http(s) URLs such as https://api.trongrid.io,http://127.0.0.1:8090; item 2 (\"b.example\") is not one"
      )
      expect(yield* failure("main", { TRON_MAIN_NODE_URLS: "https://a.example,https://b.example", TRON_MAIN_SOLIDITY_URLS: "https://a.example" })).toContain(
        "TRON_MAIN_SOLIDITY_URLS has 1 URLs and TRON_MAIN_NODE_URLS 2: give one solidity URL per node, in the same order"
      )
      expect(yield* failure("nile", { TRON_NILE_NODE_URLS: "https://a.example", TRON_NILE_NODE_URL: "https://b.example" })).toContain(
        "TRON_NILE_NODE_URL and TRON_NILE_NODE_URLS are both set"
      )
      expect(yield* failure("nile", { TRON_NILE_SOLIDITY_URLS: "https://a.example" })).toContain("TRON_NILE_SOLIDITY_URLS is set without TRON_NILE_NODE_URLS")
      expect(yield* failure("nile", { TRON_NILE_NODE_URLS: "https://a.example,http://10.0.0.7:8090" })).toContain(
        "TRON_NILE_NODE_URLS (or TRON_NILE_SOLIDITY_URLS) item 2 must be https unless it is on this machine"
      )
      expect(yield* urls("nile", { TRON_NILE_NODE_URLS: "https://a.example,http://10.0.0.7:8090", TRON_ALLOW_INSECURE_NODE: "true" })).toEqual([
        ["https://a.example", "https://a.example"],
        ["http://10.0.0.7:8090", "http://10.0.0.7:8090"]
      ])
    }))

  it("a node's label is its position and host, never its path or credentials", () => {
    expect(nodeLabel(0, defaultNodeConfig("main", { fullNodeUrl: "https://user:secret@tron.example:8443/key/abc" }))).toBe("1:tron.example:8443")
    expect(nodeLabel(1, defaultNodeConfig("main"))).toBe("2:api.trongrid.io")
  })

  it.effect("failover settings: defaults, and the variables", () =>
    Effect.gen(function*() {
      const defaults = yield* Effect.withConfigProvider(nodeFailoverConfig, provider({}))
      expect([defaults.maxLagBlocks, Duration.toMillis(defaults.coolDown), Duration.toMillis(defaults.answerTimeout)]).toEqual([5n, 30_000, 60_000])
      const set = yield* Effect.withConfigProvider(
        nodeFailoverConfig,
        provider({ TRON_NODE_MAX_LAG_BLOCKS: "3", TRON_NODE_COOL_DOWN_MS: "5000", TRON_NODE_ANSWER_TIMEOUT_MS: "2000" })
      )
      expect([set.maxLagBlocks, Duration.toMillis(set.coolDown), Duration.toMillis(set.answerTimeout)]).toEqual([3n, 5000, 2000])
      const bad = yield* Effect.withConfigProvider(nodeFailoverConfig, provider({ TRON_NODE_MAX_LAG_BLOCKS: "0" })).pipe(Effect.flip)
      expect(bad.toString()).toContain("TRON_NODE_MAX_LAG_BLOCKS must be a whole number of at least 1")
    }))
})
