import { Chain, ConfigValue, type Kernel, Setting } from "@collector/core"
import { Config, ConfigError, Duration, Either, Option } from "effect"
import { isInsecureNodeUrl, type NodeConfig, nodeReading, sharedNodeSettings } from "./NodeConfig.js"

const urlExample = "https://api.trongrid.io,http://127.0.0.1:8090"

/** The items of a comma-separated list of http(s) URLs, trailing slashes dropped; a message naming `name` when one is not. */
const urlList = (name: string, text: string): Either.Either<ReadonlyArray<string>, string> => {
  const items = text.split(",").map((item) => item.trim().replace(/\/+$/, ""))
  for (const [i, url] of items.entries()) {
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
      return Either.left(`${name} must be a comma-separated list of http(s) URLs such as ${urlExample}; item ${i + 1} ("${url}") is not one`)
    }
  }
  return Either.right(items)
}

/**
 * The nodes of `network`, in the operator's order (the first serves while it is healthy):
 * `TRON_<NETWORK>_NODE_URLS`, a comma-separated list of full-node URLs, each node's solidity API
 * on the same URL unless `TRON_<NETWORK>_SOLIDITY_URLS` gives a list of as many. Every other
 * setting (API key, USDT contract, timeouts, rate) is `nodeConfig`'s and shared by all of them.
 * Without the list, the one node of `nodeConfig` (`TRON_<NETWORK>_NODE_URL`), as before.
 */
export const nodeListSettings = (network: Kernel.Network) => {
  const prefix = `TRON_${network.toUpperCase()}_`
  return {
    urls: Setting.declare({
      name: `${prefix}NODE_URLS`,
      shown: "(none: the one node above)",
      description:
        "Several full nodes of the network, comma-separated, in order of preference (`http://127.0.0.1:8090,https://api.trongrid.io`): the first healthy one serves, the others take over when it fails or falls behind ([deployment.md](deployment.md#several-tron-nodes)). Each URL is checked like `TRON_<NETWORK>_NODE_URL` (https unless on this machine); a list of one is the single node. Not together with `TRON_<NETWORK>_NODE_URL` or `TRON_<NETWORK>_SOLIDITY_URL` (the start is refused naming both). The API key, USDT contract, timeouts and request rate are shared by every node of the list; the rate is a budget per node host. The API's sweep estimates fail over between the nodes the same way."
    }, (name) => Config.option(Config.string(name))),
    solidityUrls: Setting.declare({
      name: `${prefix}SOLIDITY_URLS`,
      shown: "each node's URL",
      description:
        "With `TRON_<NETWORK>_NODE_URLS`: each node's solidity URL, as many and in the same order (`http://127.0.0.1:8091,https://api.trongrid.io`)."
    }, (name) => Config.option(Config.string(name)))
  }
}

/** Whether `network`'s node is configured at all (`TRON_<NETWORK>_NODE_URL` or `TRON_<NETWORK>_NODE_URLS`). */
export const nodeConfigured = (network: Kernel.Network): Config.Config<boolean> =>
  Config.zipWith(nodeReading(network), nodeListSettings(network).urls, (single, urls) => single.nodeUrlSet || Option.isSome(urls))

export const nodeConfigs = (network: Kernel.Network): Config.Config<ReadonlyArray<NodeConfig>> => {
  const prefix = `TRON_${network.toUpperCase()}_`
  const list = nodeListSettings(network)
  return Config.all({
    reading: nodeReading(network),
    urls: list.urls,
    solidityUrls: list.solidityUrls,
    allowInsecure: sharedNodeSettings.allowInsecure
  }).pipe(
    Config.mapOrFail(({ allowInsecure, reading, solidityUrls, urls }) => {
      const single = reading.node
      const invalid = (message: string) => Either.left(ConfigError.InvalidData([], message))
      if (Option.isNone(urls) || urls.value.trim() === "") {
        if (Option.isSome(solidityUrls)) return invalid(`${prefix}SOLIDITY_URLS is set without ${prefix}NODE_URLS: give the node list too`)
        return Either.right([single])
      }
      for (const [name, set] of [[`${prefix}NODE_URL`, reading.nodeUrlSet], [`${prefix}SOLIDITY_URL`, reading.solidityUrlSet]] as const) {
        if (set) return invalid(`${name} and ${prefix}NODE_URLS are both set: keep one (the list takes the single URL as its only item)`)
      }
      const full = urlList(`${prefix}NODE_URLS`, urls.value)
      if (Either.isLeft(full)) return invalid(full.left)
      const solidity = Option.isSome(solidityUrls) ? urlList(`${prefix}SOLIDITY_URLS`, solidityUrls.value) : Either.right(full.right)
      if (Either.isLeft(solidity)) return invalid(solidity.left)
      if (solidity.right.length !== full.right.length) {
        return invalid(`${prefix}SOLIDITY_URLS has ${solidity.right.length} URLs and ${prefix}NODE_URLS ${full.right.length}: give one solidity URL per node, in the same order`)
      }
      const nodes = full.right.map((fullNodeUrl, i) => ({ ...single, fullNodeUrl, solidityUrl: solidity.right[i]! }))
      const insecure = nodes.findIndex((node) => isInsecureNodeUrl(node.fullNodeUrl) || isInsecureNodeUrl(node.solidityUrl))
      if (insecure >= 0 && !allowInsecure) {
        return invalid(`${prefix}NODE_URLS (or ${prefix}SOLIDITY_URLS) item ${insecure + 1} must be https unless it is on this machine (127.0.0.1, ::1, localhost): ` +
          "plain HTTP lets anyone on the path forge the blocks deposits are booked from; TRON_ALLOW_INSECURE_NODE=true allows it on a private network you trust")
      }
      return Either.right(nodes)
    })
  )
}

/** A node's label in metrics, logs and readiness: its position (from 1) and host, never its URL (which may carry credentials). */
export const nodeLabel = (position: number, node: NodeConfig): string => `${position + 1}:${new URL(node.fullNodeUrl).host}`

/**
 * How a network with several nodes fails over (shared by all networks): `TRON_NODE_MAX_LAG_BLOCKS`
 * (default 5), `TRON_NODE_COOL_DOWN_MS` (default 30 000), `TRON_NODE_ANSWER_TIMEOUT_MS` (default
 * 60 000, above one node request's timeout with its retries) and `TRON_NODE_CROSS_CHECK` (default
 * false: each block read for booking is used only when two nodes agree on it).
 */
export const nodeFailoverSettings = {
  maxLagBlocks: Setting.declare({
    name: "TRON_NODE_MAX_LAG_BLOCKS",
    default: Chain.defaultFailoverChainOptions.maxLagBlocks,
    description: "With several nodes: a node whose head is more than this many blocks behind the best head any node showed is skipped for the cool-down (at least 1)."
  }, (name) => ConfigValue.integer(name, { min: 1 }).pipe(Config.map(BigInt))),
  coolDown: Setting.declare({
    name: "TRON_NODE_COOL_DOWN_MS",
    default: Duration.decode(Chain.defaultFailoverChainOptions.coolDown),
    description: "With several nodes: how long a node that failed, timed out or lagged is skipped (at least 1)."
  }, (name) => ConfigValue.millis(name, { min: 1 })),
  answerTimeout: Setting.declare({
    name: "TRON_NODE_ANSWER_TIMEOUT_MS",
    default: Duration.decode(Chain.defaultFailoverChainOptions.answerTimeout),
    description: "With several nodes: how long one node may take over one call (its retries included) before the call goes to the next (at least 1). Keep it above `TRON_REQUEST_TIMEOUT_MS` \u00d7 (`TRON_REQUEST_RETRIES` + 1)."
  }, (name) => ConfigValue.millis(name, { min: 1 })),
  crossCheck: Setting.declare({
    name: "TRON_NODE_CROSS_CHECK",
    default: Chain.defaultFailoverChainOptions.crossCheck,
    description: "With several nodes: `true` reads every block the scanner books from two nodes and uses it only when both agree (hash, parent, USDT transfers); a disagreement holds that block's bookings, is logged and counted ([deployment.md](deployment.md#several-tron-nodes)). Doubles the scanner's node requests."
  }, (name) => ConfigValue.boolean(name))
}

export const nodeFailoverConfig: Config.Config<Chain.FailoverChainOptions> = Config.all(nodeFailoverSettings)
