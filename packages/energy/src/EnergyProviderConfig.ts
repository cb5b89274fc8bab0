import { ConfigValue, Energy, type Kernel, Setting, Sweeps } from "@collector/core"
import { FetchHttpClient, type HttpClient } from "@effect/platform"
import { networkNodeSettings } from "@collector/tron-node"
import { simServerSettings } from "@collector/tron-sim"
import { Config, ConfigError, Duration, Effect, Layer, Option, type Redacted } from "effect"
import * as CatFee from "./CatFeeEnergyProvider.js"
import * as Merx from "./MerxEnergyProvider.js"
import * as SimEnergyProvider from "./SimEnergyProvider.js"

/**
 * Which energy rental provider a network uses, from the environment (docs/configuration.md,
 * "Energy rental providers"):
 *
 * - `ENERGY_PROVIDER_<NETWORK>`: `sim`, `catfee` or `none`. Defaults: `nile` is `sim` while
 *   `TRON_NILE_NODE_URL` is unset (the service runs the simulated node, provider included),
 *   otherwise `none`; `main` is `none`. `sim` is refused on `main`.
 * - `ENERGY_PROVIDER_<NETWORK>_URL`: for `sim` the simulated node (default `TRON_NILE_NODE_URL`,
 *   else `http://TRON_SIM_HOST:TRON_SIM_PORT`, 127.0.0.1:8090); for `catfee`
 *   https://api.catfee.io (main) or https://nile.catfee.io (nile).
 * - `ENERGY_PROVIDER_<NETWORK>_API_KEY`, `ENERGY_PROVIDER_<NETWORK>_API_SECRET` (CatFee, required;
 *   kept redacted), `ENERGY_PROVIDER_<NETWORK>_QUOTE_PRICE_SUN` (100) and
 *   `ENERGY_PROVIDER_<NETWORK>_QUOTE_ACTIVATION_SUN` (1500000, `mainnetFees.providerActivation`) for CatFee's quotes.
 * - `ENERGY_PROVIDER_<NETWORK>=merx`: Merx, with `ENERGY_PROVIDER_<NETWORK>_MERX_API_KEY` (required,
 *   redacted), `ENERGY_PROVIDER_<NETWORK>_MERX_URL` (https://merx.exchange/api/v1) and
 *   `ENERGY_PROVIDER_<NETWORK>_MERX_MAX_PRICE_SUN` (optional, SUN per energy).
 * - `ENERGY_PROVIDERS_<NETWORK>`: several providers, an ordered list (`merx,catfee`), each with
 *   its own settings as above (a `sim` in a list reads `ENERGY_PROVIDER_<NETWORK>_SIM_URL`; `sim-b`
 *   is the simulated node's second provider, at the same URL);
 *   ranked by quote with failover (RankedEnergyProviders). Not together with
 *   `ENERGY_PROVIDER_<NETWORK>`. `ENERGY_PROVIDER_COOL_DOWN_MS` (300000): how long a failing
 *   provider is skipped.
 * - `ENERGY_PROVIDER_TIMEOUT_MS` (10000): per request, for every network.
 */

type SingleSettings =
  | { readonly kind: "sim"; readonly network: Kernel.Network; readonly config: SimEnergyProvider.SimProviderConfig }
  | { readonly kind: "catfee"; readonly network: Kernel.Network; readonly config: CatFee.CatFeeConfig }
  | { readonly kind: "merx"; readonly network: Kernel.Network; readonly config: Merx.MerxConfig }

export type EnergyProviderSettings =
  | { readonly kind: "none"; readonly network: Kernel.Network }
  | SingleSettings
  | {
    readonly kind: "ranked"
    readonly network: Kernel.Network
    readonly providers: ReadonlyArray<SingleSettings>
    readonly coolDown: Duration.Duration
    readonly answerTimeout: Duration.Duration
  }

const providerKinds = ["sim", "sim-b", "catfee", "merx"] as const
type ProviderKind = (typeof providerKinds)[number]
const kinds = [...providerKinds, "none"] as const
type Kind = (typeof kinds)[number]

const nameOf = (network: Kernel.Network, suffix = "") => `ENERGY_PROVIDER_${network.toUpperCase()}${suffix === "" ? "" : `_${suffix}`}`

const kindOf = (name: string) => Config.option(ConfigValue.oneOf(name, kinds, "(feee.io and others are not supported)"))

const baseUrl = (name: string) => ConfigValue.baseUrl(name, "https://api.catfee.io or http://127.0.0.1:8090")

const sunAmount = (name: string, fallback: bigint) =>
  Config.string(name).pipe(
    Config.validate({ message: `${name} must be a whole number of SUN, such as ${fallback}`, validation: (text) => /^\d{1,20}$/.test(text.trim()) }),
    Config.map((text) => BigInt(text.trim()))
  )

/** A positive whole number of SUN per energy. */
const sunPerEnergy = (name: string) =>
  Config.string(name).pipe(
    Config.validate({ message: `${name} must be a whole number of SUN per energy above 0, such as 90`, validation: (text) => /^\d{1,20}$/.test(text.trim()) && BigInt(text.trim()) > 0n }),
    Config.map((text) => BigInt(text.trim()))
  )

/** A secret that must be there and not empty. */
const requiredSecret = (setting: Setting.Setting<Option.Option<Redacted.Redacted>>, why: string): Effect.Effect<Redacted.Redacted, ConfigError.ConfigError> =>
  Effect.flatMap(setting, (secret) =>
    Option.match(secret, {
      onNone: () => Effect.fail(ConfigError.MissingData([setting.setting.name], `${setting.setting.name} is required ${why}`)),
      onSome: Effect.succeed
    }))

/** The provider settings every network shares. */
export const sharedEnergyProviderSettings = {
  requestTimeout: Setting.declare({
    name: "ENERGY_PROVIDER_TIMEOUT_MS",
    default: Duration.seconds(10),
    description: "Per provider request, reading the answer included (at least 1); no answer in time leaves the order's outcome unknown."
  }, (name) => ConfigValue.millis(name, { min: 1 })),
  coolDown: Setting.declare({
    name: "ENERGY_PROVIDER_COOL_DOWN_MS",
    default: Duration.minutes(5),
    description: "How long a provider that failed, did not answer in time or delivered less than it said is skipped by a ranked list (at least 1)."
  }, (name) => ConfigValue.millis(name, { min: 1 }))
}

const simUrlDefault = "`TRON_NILE_NODE_URL`, else `http://TRON_SIM_HOST:TRON_SIM_PORT`"

/** The provider settings of `network` (`ENERGY_PROVIDER_<NETWORK>*`, `ENERGY_PROVIDERS_<NETWORK>`); descriptions are the same for every network. */
export const energyProviderSettings = (network: Kernel.Network) => ({
  kind: Setting.declare({
    name: nameOf(network),
    shown: network === "nile" ? "`sim` (`none` when `TRON_NILE_NODE_URL` is set)" : "`none`",
    description:
      "`sim` (the simulated node's provider; refused on `main`), `catfee`, or `none` (every quote and order refused: the sweeper uses the wallet's own energy and TRX)."
  }, kindOf),
  url: Setting.declare({
    name: nameOf(network, "URL"),
    shown: `\`sim\`: ${simUrlDefault}; \`catfee\`: \`${CatFee.catFeeBaseUrls.main}\` / \`${CatFee.catFeeBaseUrls.nile}\``,
    description: "Base URL of the provider (http or https, trailing slashes dropped)."
  }, (name) => Config.option(baseUrl(name))),
  apiKey: Setting.declare({
    name: nameOf(network, "API_KEY"),
    description: "CatFee API key; required with `catfee`. Kept redacted. CatFee's production and Nile accounts and keys are separate."
  }, ConfigValue.secret),
  apiSecret: Setting.declare({
    name: nameOf(network, "API_SECRET"),
    description: "CatFee API secret (signs every request); required with `catfee`. Kept redacted."
  }, ConfigValue.secret),
  quotePrice: Setting.declare({
    name: nameOf(network, "QUOTE_PRICE_SUN"),
    default: 100n,
    description: "SUN per energy that CatFee quotes are computed with (the order reports what was actually charged)."
  }, (name) => sunAmount(name, 100n)),
  quoteActivation: Setting.declare({
    name: nameOf(network, "QUOTE_ACTIVATION_SUN"),
    default: Sweeps.mainnetFees.providerActivation,
    description: "SUN quoted by CatFee quotes for activating a receiver."
  }, (name) => sunAmount(name, Sweeps.mainnetFees.providerActivation)),
  list: Setting.declare({
    name: `ENERGY_PROVIDERS_${network.toUpperCase()}`,
    shown: "(unset)",
    description:
      `Several providers, an ordered comma-separated list of ${providerKinds.map((kind) => `\`${kind}\``).join(", ")} (\`merx,catfee\`), ranked by quote with failover (docs/fees.md, "Rental providers"). Each reads its own settings. Not together with \`ENERGY_PROVIDER_<NETWORK>\` (start-up fails naming both); a list of one is that provider alone, so \`ENERGY_PROVIDERS_MAIN=catfee\` equals \`ENERGY_PROVIDER_MAIN=catfee\`. \`sim\` and \`sim-b\` (the simulated node's second provider) are refused on \`main\`.`
  }, (name) => Config.option(ConfigValue.listOf(name, providerKinds))),
  merxApiKey: Setting.declare({
    name: nameOf(network, "MERX_API_KEY"),
    description: "Merx API key (`X-API-Key`, with `create_orders` and `view_orders`); required with `merx`. Kept redacted."
  }, ConfigValue.secret),
  merxUrl: Setting.declare({ name: nameOf(network, "MERX_URL"), default: Merx.merxBaseUrl, description: "Merx base URL." }, (name) =>
    ConfigValue.baseUrl(name, Merx.merxBaseUrl)),
  merxMaxPrice: Setting.declare({
    name: nameOf(network, "MERX_MAX_PRICE_SUN"),
    description: "Sent as `max_price_sun` (SUN per energy, above 0) with Merx previews and orders: Merx refuses a market order above it."
  }, (name) => Config.option(sunPerEnergy(name))),
  simUrl: Setting.declare({
    name: nameOf(network, "SIM_URL"),
    shown: simUrlDefault,
    description: "The simulated node, for `sim`/`sim-b` in a list (`ENERGY_PROVIDER_<NETWORK>_URL` stays CatFee's there)."
  }, (name) => Config.option(baseUrl(name)))
})

const requestTimeout = sharedEnergyProviderSettings.requestTimeout

const coolDown = sharedEnergyProviderSettings.coolDown

/**
 * Where the service's simulated nile node listens: the node URL if set, else TRON_SIM_HOST:TRON_SIM_PORT,
 * each read through its own declaration (the node's package, the simulator's).
 */
const simulatedNodeUrl = Effect.gen(function*() {
  const nodeUrl = yield* networkNodeSettings("nile").nodeUrl
  if (Option.isSome(nodeUrl)) return nodeUrl.value
  const host = yield* simServerSettings.host
  const port = yield* simServerSettings.port
  return `http://${host}:${port}`
})

/**
 * One provider's own settings. `variable` chose it and `where` says how (`ENERGY_PROVIDER_MAIN=catfee`,
 * `catfee in ENERGY_PROVIDERS_MAIN`), for messages; `simUrlName` is where a `sim` reads its URL.
 */
const providerSettings = (
  network: Kernel.Network,
  kind: ProviderKind,
  variable: string,
  where: string,
  simUrl: Config.Config<Option.Option<string>>
): Effect.Effect<SingleSettings, ConfigError.ConfigError> =>
  Effect.gen(function*() {
    const settings = energyProviderSettings(network)
    const timeout = yield* requestTimeout
    if (kind === "sim" || kind === "sim-b") {
      if (network === "main") {
        return yield* Effect.fail(ConfigError.InvalidData([variable], `${where}: the simulated provider serves test networks only; use catfee, merx or none`))
      }
      const url = yield* simUrl
      const resolved = Option.isSome(url) ? url.value : yield* simulatedNodeUrl
      return { kind: "sim", network, config: SimEnergyProvider.defaultSimProviderConfig(resolved, { requestTimeout: timeout, name: kind }) }
    }
    if (kind === "merx") {
      const why = `with ${where} (Merx: dashboard, API keys, with create_orders and view_orders)`
      return {
        kind,
        network,
        config: {
          baseUrl: yield* settings.merxUrl,
          apiKey: yield* requiredSecret(settings.merxApiKey, why),
          requestTimeout: timeout,
          maxPricePerEnergy: yield* settings.merxMaxPrice
        }
      }
    }
    const why = `with ${where} (CatFee: User Center, API Settings)`
    return {
      kind,
      network,
      config: {
        network,
        baseUrl: Option.getOrElse(yield* settings.url, () => CatFee.catFeeBaseUrls[network]),
        apiKey: yield* requiredSecret(settings.apiKey, why),
        apiSecret: yield* requiredSecret(settings.apiSecret, why),
        requestTimeout: timeout,
        quotePricePerEnergy: yield* settings.quotePrice,
        quoteActivationCost: yield* settings.quoteActivation
      }
    }
  })

/** The provider(s) of `network` as its variables choose them (above). */
export const energyProviderConfig = (network: Kernel.Network): Effect.Effect<EnergyProviderSettings, ConfigError.ConfigError> =>
  Effect.gen(function*() {
    const name = nameOf(network)
    const listName = `ENERGY_PROVIDERS_${network.toUpperCase()}`
    const settings = energyProviderSettings(network)
    const chosen = yield* settings.kind
    const list = yield* settings.list
    if (Option.isSome(list)) {
      if (Option.isSome(chosen)) {
        return yield* Effect.fail(
          ConfigError.InvalidData([name], `${name} and ${listName} are both set: keep ${listName} only (${listName}=${chosen.value} is the same as ${name}=${chosen.value})`)
        )
      }
      const providers = yield* Effect.forEach(list.value, (kind) => providerSettings(network, kind, listName, `${kind} in ${listName}`, settings.simUrl))
      if (providers.length === 1) return providers[0]!
      return { kind: "ranked" as const, network, providers, coolDown: yield* coolDown, answerTimeout: yield* requestTimeout }
    }
    const nodeUrlSet = Option.isSome(yield* networkNodeSettings("nile").nodeUrl)
    const kind = Option.getOrElse(chosen, (): Kind => (network === "nile" && !nodeUrlSet ? "sim" : "none"))
    if (kind === "none") return { kind, network }
    return yield* providerSettings(network, kind, name, `${name}=${kind}`, settings.url)
  })

/** One line for the start-up log; never a secret. */
export const describeEnergyProvider = (settings: EnergyProviderSettings): string => {
  switch (settings.kind) {
    case "none":
      return `energy provider for ${settings.network}: none (rentals refused)`
    case "sim":
      return `energy provider for ${settings.network}: the simulated provider ${settings.config.name} at ${settings.config.baseUrl}`
    case "catfee":
      return `energy provider for ${settings.network}: CatFee at ${settings.config.baseUrl}`
    case "merx":
      return `energy provider for ${settings.network}: Merx at ${settings.config.baseUrl}`
    case "ranked":
      return `energy providers for ${settings.network}, ranked by quote: ${settings.providers.map((p) => describeEnergyProvider(p).replace(/^[^:]*: /, "")).join("; ")}`
  }
}

const providerService = (settings: SingleSettings): Effect.Effect<Energy.EnergyProviderService, never, HttpClient.HttpClient> => {
  switch (settings.kind) {
    case "sim":
      return SimEnergyProvider.make(settings.config)
    case "catfee":
      return CatFee.make(settings.config)
    case "merx":
      return Merx.make(settings.config)
  }
}

/** The adapter `settings` choose; several are ranked by quote with failover. */
export const energyProviderLayer = (settings: EnergyProviderSettings): Layer.Layer<Energy.EnergyProvider, never, HttpClient.HttpClient> => {
  switch (settings.kind) {
    case "none":
      return Layer.succeed(Energy.EnergyProvider, Energy.noEnergyProvider(settings.network))
    case "ranked":
      return Layer.effect(
        Energy.EnergyProvider,
        Effect.flatMap(Effect.forEach(settings.providers, providerService), (providers) =>
          Energy.rankedEnergyProviders(providers, { coolDown: settings.coolDown, answerTimeout: settings.answerTimeout }))
      )
    default:
      return Layer.effect(Energy.EnergyProvider, providerService(settings))
  }
}

/**
 * The EnergyProvider of `network` with the settings of `config` (by default its variables), over
 * the fetch HTTP client, logged once at start. Invalid settings fail at start with a message naming
 * the variable.
 */
export const energyProviderLayerConfig = (
  network: Kernel.Network,
  config: Effect.Effect<EnergyProviderSettings, ConfigError.ConfigError> = energyProviderConfig(network)
): Layer.Layer<Energy.EnergyProvider, ConfigError.ConfigError> =>
  Layer.unwrapEffect(
    Effect.map(
      Effect.tap(config, (settings) => Effect.log(describeEnergyProvider(settings))),
      energyProviderLayer
    )
  ).pipe(Layer.provide(FetchHttpClient.layer))
