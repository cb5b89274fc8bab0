import { ConfigValue, type Network } from "@collector/core"
import { TronAddress } from "@collector/tron"
import { Config, ConfigError, Duration, Either, Option, type Redacted } from "effect"

/** How to reach the node of one network, and how hard to lean on it. */
export interface NodeConfig {
  readonly network: Network
  /** Serves `/wallet/*` (head state). No trailing slash. */
  readonly fullNodeUrl: string
  /** Serves `/walletsolidity/*` (solidified state): the same host on TronGrid, port 8091 on a self-hosted node. */
  readonly solidityUrl: string
  /** Sent as `TRON-PRO-API-KEY`; TronGrid throttles keyless callers hard. */
  readonly apiKey: Option.Option<Redacted.Redacted>
  /** Base58Check address of the network's USDT contract. */
  readonly usdtContract: string
  /** Per attempt, including reading the body. */
  readonly requestTimeout: Duration.Duration
  /** Extra attempts for idempotent reads after 429, 5xx, timeouts and transport failures. */
  readonly retries: number
  /** First backoff; each further retry doubles it (jittered). */
  readonly retryBaseDelay: Duration.Duration
  /** Sustained requests per second per node host; also the burst size. */
  readonly requestsPerSecond: number
}

const networkDefaults: Record<Network, { readonly url: string; readonly usdt: string }> = {
  main: { url: "https://api.trongrid.io", usdt: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" },
  nile: { url: "https://nile.trongrid.io", usdt: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf" }
}

/** The defaults of `network`; tests override single fields. */
export const defaultNodeConfig = (network: Network, overrides: Partial<NodeConfig> = {}): NodeConfig => ({
  network,
  fullNodeUrl: networkDefaults[network].url,
  solidityUrl: networkDefaults[network].url,
  apiKey: Option.none(),
  usdtContract: networkDefaults[network].usdt,
  requestTimeout: Duration.seconds(10),
  retries: 3,
  retryBaseDelay: Duration.millis(250),
  requestsPerSecond: 10,
  ...overrides
})

const urlExample = "https://api.trongrid.io or http://127.0.0.1:8090"

/** Mainnet's USDT contract: the one Tether issues. A setting cannot point `main` anywhere else. */
export const mainnetUsdtContract = networkDefaults.main.usdt

/** Whether `url` names this machine: the one place plain HTTP to a node cannot be read or altered on the way. */
export const isLoopbackUrl = (url: string): boolean => {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "")
  return host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host)
}

/** A node URL in plain HTTP to another machine: deposits would rest on answers anyone on the path could forge. */
export const isInsecureNodeUrl = (url: string): boolean => new URL(url).protocol === "http:" && !isLoopbackUrl(url)

const usdtContract = (name: string) =>
  Config.string(name).pipe(
    Config.map((text) => text.trim()),
    Config.validate({
      message: `${name} must be a TRON Base58Check address (34 characters starting with T)`,
      validation: TronAddress.isValidTronAddress
    })
  )

/**
 * The node settings of `network` from the environment: `TRON_<NETWORK>_NODE_URL`,
 * `TRON_<NETWORK>_SOLIDITY_URL` (defaults to the node URL, right for TronGrid; a self-hosted node
 * serves it on port 8091), `TRON_<NETWORK>_API_KEY` (empty counts as none, so `TRON_MAIN_API_KEY=`
 * in an env file sends no empty header), `TRON_<NETWORK>_USDT_CONTRACT`, and the shared
 * `TRON_REQUEST_TIMEOUT_MS`, `TRON_REQUEST_RETRIES`, `TRON_REQUESTS_PER_SECOND`.
 */
export const nodeConfig = (network: Network): Config.Config<NodeConfig> => {
  const prefix = `TRON_${network.toUpperCase()}_`
  const defaults = defaultNodeConfig(network)
  return Config.all({
    fullNodeUrl: ConfigValue.baseUrl(`${prefix}NODE_URL`, urlExample).pipe(Config.withDefault(defaults.fullNodeUrl)),
    solidityUrl: Config.option(ConfigValue.baseUrl(`${prefix}SOLIDITY_URL`, urlExample)),
    apiKey: ConfigValue.secret(`${prefix}API_KEY`),
    usdtContract: usdtContract(`${prefix}USDT_CONTRACT`).pipe(Config.withDefault(defaults.usdtContract)),
    requestTimeout: ConfigValue.millis("TRON_REQUEST_TIMEOUT_MS", { min: 1 }).pipe(Config.withDefault(defaults.requestTimeout)),
    retries: ConfigValue.integer("TRON_REQUEST_RETRIES", { min: 0 }).pipe(Config.withDefault(defaults.retries)),
    requestsPerSecond: ConfigValue.positiveNumber("TRON_REQUESTS_PER_SECOND").pipe(Config.withDefault(defaults.requestsPerSecond))
  }).pipe(
    Config.map(({ solidityUrl, ...rest }) => ({
      ...defaults,
      ...rest,
      solidityUrl: Option.getOrElse(solidityUrl, () => rest.fullNodeUrl)
    })),
    Config.zipWith(ConfigValue.boolean("TRON_ALLOW_INSECURE_NODE").pipe(Config.withDefault(false)), (node, allowInsecure) => ({ node, allowInsecure })),
    Config.mapOrFail(({ allowInsecure, node }) => {
      if (network === "main" && node.usdtContract !== mainnetUsdtContract) {
        return Either.left(ConfigError.InvalidData([], `${prefix}USDT_CONTRACT cannot be changed on main: mainnet's USDT is ${mainnetUsdtContract}`))
      }
      const insecure = [[`${prefix}NODE_URL`, node.fullNodeUrl], [`${prefix}SOLIDITY_URL`, node.solidityUrl]].find(([, url]) => isInsecureNodeUrl(url!))
      if (insecure !== undefined && !allowInsecure) {
        return Either.left(ConfigError.InvalidData([], `${insecure[0]} must be https unless it is on this machine (127.0.0.1, ::1, localhost): ` +
          "plain HTTP lets anyone on the path forge the blocks deposits are booked from; TRON_ALLOW_INSECURE_NODE=true allows it on a private network you trust"))
      }
      return Either.right(node)
    })
  )
}
