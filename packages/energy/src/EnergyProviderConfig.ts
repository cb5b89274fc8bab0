import {
  ConfigValue,
  EnergyProvider,
  type EnergyProviderService,
  mainnetFees,
  type Network,
  noEnergyProvider,
  rankedEnergyProviders
} from "@collector/core"
import { FetchHttpClient, type HttpClient } from "@effect/platform"
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
  | { readonly kind: "sim"; readonly network: Network; readonly config: SimEnergyProvider.SimProviderConfig }
  | { readonly kind: "catfee"; readonly network: Network; readonly config: CatFee.CatFeeConfig }
  | { readonly kind: "merx"; readonly network: Network; readonly config: Merx.MerxConfig }

export type EnergyProviderSettings =
  | { readonly kind: "none"; readonly network: Network }
  | SingleSettings
  | {
    readonly kind: "ranked"
    readonly network: Network
    readonly providers: ReadonlyArray<SingleSettings>
    readonly coolDown: Duration.Duration
    readonly answerTimeout: Duration.Duration
  }

const providerKinds = ["sim", "sim-b", "catfee", "merx"] as const
type ProviderKind = (typeof providerKinds)[number]
const kinds = [...providerKinds, "none"] as const
type Kind = (typeof kinds)[number]

const nameOf = (network: Network, suffix = "") => `ENERGY_PROVIDER_${network.toUpperCase()}${suffix === "" ? "" : `_${suffix}`}`

const kindOf = (name: string) => Config.option(ConfigValue.oneOf(name, kinds, "(feee.io and others are not supported)"))

const baseUrl = (name: string) => ConfigValue.baseUrl(name, "https://api.catfee.io or http://127.0.0.1:8090")

const sunAmount = (name: string, fallback: bigint) =>
  Config.string(name).pipe(
    Config.validate({ message: `${name} must be a whole number of SUN, such as ${fallback}`, validation: (text) => /^\d{1,20}$/.test(text.trim()) }),
    Config.map((text) => BigInt(text.trim())),
    Config.withDefault(fallback)
  )

/** A positive whole number of SUN per energy. */
const sunPerEnergy = (name: string) =>
  Config.string(name).pipe(
    Config.validate({ message: `${name} must be a whole number of SUN per energy above 0, such as 90`, validation: (text) => /^\d{1,20}$/.test(text.trim()) && BigInt(text.trim()) > 0n }),
    Config.map((text) => BigInt(text.trim()))
  )

/** A secret that must be there and not empty. */
const requiredSecret = (name: string, why: string): Effect.Effect<Redacted.Redacted, ConfigError.ConfigError> =>
  Effect.flatMap(ConfigValue.secret(name), (secret) =>
    Option.match(secret, {
      onNone: () => Effect.fail(ConfigError.MissingData([name], `${name} is required ${why}`)),
      onSome: Effect.succeed
    }))

const requestTimeout = ConfigValue.millis("ENERGY_PROVIDER_TIMEOUT_MS", { min: 1 }).pipe(Config.withDefault(Duration.seconds(10)))

const coolDown = ConfigValue.millis("ENERGY_PROVIDER_COOL_DOWN_MS", { min: 1 }).pipe(Config.withDefault(Duration.minutes(5)))

/** Where the service's simulated nile node listens: the node URL if set, else TRON_SIM_HOST:TRON_SIM_PORT. */
const simulatedNodeUrl = Effect.gen(function*() {
  const nodeUrl = yield* Config.option(ConfigValue.baseUrl("TRON_NILE_NODE_URL", "https://nile.trongrid.io or http://127.0.0.1:8090"))
  if (Option.isSome(nodeUrl)) return nodeUrl.value
  const host = yield* Config.string("TRON_SIM_HOST").pipe(Config.withDefault("127.0.0.1"))
  const port = yield* ConfigValue.port("TRON_SIM_PORT").pipe(Config.withDefault(8090))
  return `http://${host}:${port}`
})

/**
 * One provider's own settings. `variable` chose it and `where` says how (`ENERGY_PROVIDER_MAIN=catfee`,
 * `catfee in ENERGY_PROVIDERS_MAIN`), for messages; `simUrlName` is where a `sim` reads its URL.
 */
const providerSettings = (network: Network, kind: ProviderKind, variable: string, where: string, simUrlName: string): Effect.Effect<SingleSettings, ConfigError.ConfigError> =>
  Effect.gen(function*() {
    const timeout = yield* requestTimeout
    if (kind === "sim" || kind === "sim-b") {
      if (network === "main") {
        return yield* Effect.fail(ConfigError.InvalidData([variable], `${where}: the simulated provider serves test networks only; use catfee, merx or none`))
      }
      const url = yield* Config.option(baseUrl(simUrlName))
      const resolved = Option.isSome(url) ? url.value : yield* simulatedNodeUrl
      return { kind: "sim", network, config: SimEnergyProvider.defaultSimProviderConfig(resolved, { requestTimeout: timeout, name: kind }) }
    }
    if (kind === "merx") {
      const why = `with ${where} (Merx: dashboard, API keys, with create_orders and view_orders)`
      return {
        kind,
        network,
        config: {
          baseUrl: yield* ConfigValue.baseUrl(nameOf(network, "MERX_URL"), Merx.merxBaseUrl).pipe(Config.withDefault(Merx.merxBaseUrl)),
          apiKey: yield* requiredSecret(nameOf(network, "MERX_API_KEY"), why),
          requestTimeout: timeout,
          maxPricePerEnergy: yield* Config.option(sunPerEnergy(nameOf(network, "MERX_MAX_PRICE_SUN")))
        }
      }
    }
    const why = `with ${where} (CatFee: User Center, API Settings)`
    return {
      kind,
      network,
      config: {
        network,
        baseUrl: yield* baseUrl(nameOf(network, "URL")).pipe(Config.withDefault(CatFee.catFeeBaseUrls[network])),
        apiKey: yield* requiredSecret(nameOf(network, "API_KEY"), why),
        apiSecret: yield* requiredSecret(nameOf(network, "API_SECRET"), why),
        requestTimeout: timeout,
        quotePricePerEnergy: yield* sunAmount(nameOf(network, "QUOTE_PRICE_SUN"), 100n),
        quoteActivationCost: yield* sunAmount(nameOf(network, "QUOTE_ACTIVATION_SUN"), mainnetFees.providerActivation)
      }
    }
  })

/** The provider(s) of `network` as its variables choose them (above). */
export const energyProviderConfig = (network: Network): Effect.Effect<EnergyProviderSettings, ConfigError.ConfigError> =>
  Effect.gen(function*() {
    const name = nameOf(network)
    const listName = `ENERGY_PROVIDERS_${network.toUpperCase()}`
    const chosen = yield* kindOf(name)
    const list = yield* Config.option(ConfigValue.listOf(listName, providerKinds))
    if (Option.isSome(list)) {
      if (Option.isSome(chosen)) {
        return yield* Effect.fail(
          ConfigError.InvalidData([name], `${name} and ${listName} are both set: keep ${listName} only (${listName}=${chosen.value} is the same as ${name}=${chosen.value})`)
        )
      }
      const providers = yield* Effect.forEach(list.value, (kind) => providerSettings(network, kind, listName, `${kind} in ${listName}`, nameOf(network, "SIM_URL")))
      if (providers.length === 1) return providers[0]!
      return { kind: "ranked" as const, network, providers, coolDown: yield* coolDown, answerTimeout: yield* requestTimeout }
    }
    const nodeUrlSet = Option.isSome(yield* Config.option(Config.string("TRON_NILE_NODE_URL")))
    const kind = Option.getOrElse(chosen, (): Kind => (network === "nile" && !nodeUrlSet ? "sim" : "none"))
    if (kind === "none") return { kind, network }
    return yield* providerSettings(network, kind, name, `${name}=${kind}`, nameOf(network, "URL"))
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

const providerService = (settings: SingleSettings): Effect.Effect<EnergyProviderService, never, HttpClient.HttpClient> => {
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
export const energyProviderLayer = (settings: EnergyProviderSettings): Layer.Layer<EnergyProvider, never, HttpClient.HttpClient> => {
  switch (settings.kind) {
    case "none":
      return Layer.succeed(EnergyProvider, noEnergyProvider(settings.network))
    case "ranked":
      return Layer.effect(
        EnergyProvider,
        Effect.flatMap(Effect.forEach(settings.providers, providerService), (providers) =>
          rankedEnergyProviders(providers, { coolDown: settings.coolDown, answerTimeout: settings.answerTimeout }))
      )
    default:
      return Layer.effect(EnergyProvider, providerService(settings))
  }
}

/**
 * The EnergyProvider of `network` with the settings of `config` (by default its variables), over
 * the fetch HTTP client, logged once at start. Invalid settings fail at start with a message naming
 * the variable.
 */
export const energyProviderLayerConfig = (
  network: Network,
  config: Effect.Effect<EnergyProviderSettings, ConfigError.ConfigError> = energyProviderConfig(network)
): Layer.Layer<EnergyProvider, ConfigError.ConfigError> =>
  Layer.unwrapEffect(
    Effect.map(
      Effect.tap(config, (settings) => Effect.log(describeEnergyProvider(settings))),
      energyProviderLayer
    )
  ).pipe(Layer.provide(FetchHttpClient.layer))
