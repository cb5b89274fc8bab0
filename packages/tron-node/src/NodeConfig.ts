import { ConfigValue, type Kernel, Setting } from "@collector/core"
import { TronAddress } from "@collector/tron"
import { Config, ConfigError, Duration, Either, Option, type Redacted } from "effect"

/** How to reach the node of one network, and how hard to lean on it. */
export interface NodeConfig {
  readonly network: Kernel.Network
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

const networkDefaults: Record<Kernel.Network, { readonly url: string; readonly usdt: string }> = {
  main: { url: "https://api.trongrid.io", usdt: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" },
  nile: { url: "https://nile.trongrid.io", usdt: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf" }
}

/** The defaults of `network`; tests override single fields. */
export const defaultNodeConfig = (network: Kernel.Network, overrides: Partial<NodeConfig> = {}): NodeConfig => ({
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

/** The settings of one network's node (`TRON_<NETWORK>_*`); the names differ per network, the descriptions do not. */
export const networkNodeSettings = (network: Kernel.Network) => {
  const prefix = `TRON_${network.toUpperCase()}_`
  const defaults = defaultNodeConfig(network)
  return {
    nodeUrl: Setting.declare({
      name: `${prefix}NODE_URL`,
      shown: `\`${defaults.fullNodeUrl}\``,
      description:
        "Full node (`/wallet/*`). Must be `https` unless the host is this machine (`127.0.0.1`, `::1`, `localhost`): deposits are booked from its answers, and plain HTTP lets anyone on the path forge them. The solidity URL likewise."
    }, (name) => Config.option(ConfigValue.baseUrl(name, urlExample))),
    solidityUrl: Setting.declare({
      name: `${prefix}SOLIDITY_URL`,
      shown: "the node URL",
      description: "Solidity node (`/walletsolidity/*`); a self-hosted java-tron serves it on port 8091."
    }, (name) => Config.option(ConfigValue.baseUrl(name, urlExample))),
    // Empty counts as none, so `TRON_MAIN_API_KEY=` in an env file sends no empty header.
    apiKey: Setting.declare({ name: `${prefix}API_KEY`, description: "Sent as `TRON-PRO-API-KEY` (TronGrid)." }, ConfigValue.secret),
    usdtContract: Setting.declare({
      name: `${prefix}USDT_CONTRACT`,
      default: defaults.usdtContract,
      description:
        `The network's USDT contract. Fixed on \`main\` (Tether's \`${mainnetUsdtContract}\`: any other value stops the start); settable on \`nile\`.`
    }, usdtContract)
  }
}

const sharedDefaults = defaultNodeConfig("main")

/** The node settings every network shares. */
export const sharedNodeSettings = {
  requestTimeout: Setting.declare({
    name: "TRON_REQUEST_TIMEOUT_MS",
    default: sharedDefaults.requestTimeout,
    description: "Per attempt (at least 1)."
  }, (name) => ConfigValue.millis(name, { min: 1 })),
  retries: Setting.declare({
    name: "TRON_REQUEST_RETRIES",
    default: sharedDefaults.retries,
    description: "Retries of reads on 429, 5xx, timeouts and connection failures (jittered backoff; at least 0); a broadcast is never retried."
  }, (name) => ConfigValue.integer(name, { min: 0 })),
  requestsPerSecond: Setting.declare({
    name: "TRON_REQUESTS_PER_SECOND",
    default: sharedDefaults.requestsPerSecond,
    description:
      "Request budget per node host (token bucket; greater than 0, fractions allowed). Account reads, estimates and receipts get at most half of it, so the scanner's requests always find room (docs/scanner.md). With an own node raise it (200 is no burden for java-tron)."
  }, (name) => ConfigValue.positiveNumber(name)),
  allowInsecure: Setting.declare({
    name: "TRON_ALLOW_INSECURE_NODE",
    default: false,
    description:
      "`true` allows plain-HTTP node URLs to other machines (a node on a private network you trust); the worker warns at every start that it runs so."
  }, ConfigValue.boolean)
}

/** One network's node as its variables give it, and whether its URLs were given at all (a list may not be given beside them). */
export interface NodeReading {
  readonly node: NodeConfig
  readonly nodeUrlSet: boolean
  readonly solidityUrlSet: boolean
}

/**
 * The node settings of `network` from the environment: `TRON_<NETWORK>_NODE_URL`,
 * `TRON_<NETWORK>_SOLIDITY_URL` (defaults to the node URL, right for TronGrid; a self-hosted node
 * serves it on port 8091), `TRON_<NETWORK>_API_KEY`, `TRON_<NETWORK>_USDT_CONTRACT`, and the shared
 * `TRON_REQUEST_TIMEOUT_MS`, `TRON_REQUEST_RETRIES`, `TRON_REQUESTS_PER_SECOND`.
 */
export const nodeReading = (network: Kernel.Network): Config.Config<NodeReading> => {
  const prefix = `TRON_${network.toUpperCase()}_`
  const defaults = defaultNodeConfig(network)
  const own = networkNodeSettings(network)
  return Config.all({
    nodeUrl: own.nodeUrl,
    solidityUrl: own.solidityUrl,
    apiKey: own.apiKey,
    usdtContract: own.usdtContract,
    requestTimeout: sharedNodeSettings.requestTimeout,
    retries: sharedNodeSettings.retries,
    requestsPerSecond: sharedNodeSettings.requestsPerSecond
  }).pipe(
    Config.map(({ nodeUrl, solidityUrl, ...rest }) => {
      const fullNodeUrl = Option.getOrElse(nodeUrl, () => defaults.fullNodeUrl)
      return {
        node: { ...defaults, ...rest, fullNodeUrl, solidityUrl: Option.getOrElse(solidityUrl, () => fullNodeUrl) },
        nodeUrlSet: Option.isSome(nodeUrl),
        solidityUrlSet: Option.isSome(solidityUrl)
      }
    }),
    Config.zipWith(sharedNodeSettings.allowInsecure, (reading, allowInsecure) => ({ reading, allowInsecure })),
    Config.mapOrFail(({ allowInsecure, reading }) => {
      const { node } = reading
      if (network === "main" && node.usdtContract !== mainnetUsdtContract) {
        return Either.left(ConfigError.InvalidData([], `${prefix}USDT_CONTRACT cannot be changed on main: mainnet's USDT is ${mainnetUsdtContract}`))
      }
      const insecure = [[`${prefix}NODE_URL`, node.fullNodeUrl], [`${prefix}SOLIDITY_URL`, node.solidityUrl]].find(([, url]) => isInsecureNodeUrl(url!))
      if (insecure !== undefined && !allowInsecure) {
        return Either.left(ConfigError.InvalidData([], `${insecure[0]} must be https unless it is on this machine (127.0.0.1, ::1, localhost): ` +
          "plain HTTP lets anyone on the path forge the blocks deposits are booked from; TRON_ALLOW_INSECURE_NODE=true allows it on a private network you trust"))
      }
      return Either.right(reading)
    })
  )
}

/** The node of `network` as its variables give it (`nodeReading`). */
export const nodeConfig = (network: Kernel.Network): Config.Config<NodeConfig> => Config.map(nodeReading(network), ({ node }) => node)
