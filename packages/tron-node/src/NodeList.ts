import { ConfigValue, defaultFailoverChainOptions, type FailoverChainOptions, type Network } from "@collector/core"
import { Config, ConfigError, Duration, Either, Option } from "effect"
import { isInsecureNodeUrl, type NodeConfig, nodeConfig } from "./NodeConfig.js"

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
export const nodeConfigs = (network: Network): Config.Config<ReadonlyArray<NodeConfig>> => {
  const prefix = `TRON_${network.toUpperCase()}_`
  return Config.all({
    single: nodeConfig(network),
    urls: Config.option(Config.string(`${prefix}NODE_URLS`)),
    solidityUrls: Config.option(Config.string(`${prefix}SOLIDITY_URLS`)),
    singleUrl: Config.option(Config.string(`${prefix}NODE_URL`)),
    singleSolidityUrl: Config.option(Config.string(`${prefix}SOLIDITY_URL`)),
    allowInsecure: ConfigValue.boolean("TRON_ALLOW_INSECURE_NODE").pipe(Config.withDefault(false))
  }).pipe(
    Config.mapOrFail(({ allowInsecure, single, singleSolidityUrl, singleUrl, solidityUrls, urls }) => {
      const invalid = (message: string) => Either.left(ConfigError.InvalidData([], message))
      if (Option.isNone(urls) || urls.value.trim() === "") {
        if (Option.isSome(solidityUrls)) return invalid(`${prefix}SOLIDITY_URLS is set without ${prefix}NODE_URLS: give the node list too`)
        return Either.right([single])
      }
      for (const [name, value] of [[`${prefix}NODE_URL`, singleUrl], [`${prefix}SOLIDITY_URL`, singleSolidityUrl]] as const) {
        if (Option.isSome(value)) return invalid(`${name} and ${prefix}NODE_URLS are both set: keep one (the list takes the single URL as its only item)`)
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
export const nodeFailoverConfig: Config.Config<FailoverChainOptions> = Config.all({
  maxLagBlocks: ConfigValue.integer("TRON_NODE_MAX_LAG_BLOCKS", { min: 1 }).pipe(
    Config.map(BigInt),
    Config.withDefault(defaultFailoverChainOptions.maxLagBlocks)
  ),
  coolDown: ConfigValue.millis("TRON_NODE_COOL_DOWN_MS", { min: 1 }).pipe(Config.withDefault(Duration.decode(defaultFailoverChainOptions.coolDown))),
  answerTimeout: ConfigValue.millis("TRON_NODE_ANSWER_TIMEOUT_MS", { min: 1 }).pipe(Config.withDefault(Duration.decode(defaultFailoverChainOptions.answerTimeout))),
  crossCheck: ConfigValue.boolean("TRON_NODE_CROSS_CHECK").pipe(Config.withDefault(defaultFailoverChainOptions.crossCheck))
})
