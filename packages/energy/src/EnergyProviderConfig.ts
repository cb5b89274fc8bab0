import { EnergyProvider, mainnetFees, type Network, noEnergyProvider } from "@collector/core"
import { FetchHttpClient, type HttpClient } from "@effect/platform"
import { Config, ConfigError, Duration, Effect, Layer, Option, Redacted } from "effect"
import * as CatFee from "./CatFeeEnergyProvider"
import * as SimEnergyProvider from "./SimEnergyProvider"

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
 * - `ENERGY_PROVIDER_TIMEOUT_MS` (10000): per request, for every network.
 */

export type EnergyProviderSettings =
  | { readonly kind: "none"; readonly network: Network }
  | { readonly kind: "sim"; readonly network: Network; readonly config: SimEnergyProvider.SimProviderConfig }
  | { readonly kind: "catfee"; readonly network: Network; readonly config: CatFee.CatFeeConfig }

const kinds = ["sim", "catfee", "none"] as const
type Kind = (typeof kinds)[number]

const nameOf = (network: Network, suffix = "") => `ENERGY_PROVIDER_${network.toUpperCase()}${suffix === "" ? "" : `_${suffix}`}`

const kindOf = (name: string) =>
  Config.string(name).pipe(
    Config.map((text) => text.trim().toLowerCase()),
    Config.validate({
      message: `${name} must be sim, catfee or none (feee.io and others are not supported)`,
      validation: (text): text is Kind => (kinds as ReadonlyArray<string>).includes(text)
    }),
    Config.map((text) => text as Kind),
    Config.option
  )

/** An http(s) URL without trailing slashes. */
const baseUrl = (name: string) =>
  Config.string(name).pipe(
    Config.map((text) => text.trim().replace(/\/+$/, "")),
    Config.validate({
      message: `${name} must be an http(s) URL such as https://api.catfee.io or http://127.0.0.1:8090`,
      validation: (text) => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol)
    })
  )

const sunAmount = (name: string, fallback: bigint) =>
  Config.string(name).pipe(
    Config.validate({ message: `${name} must be a whole number of SUN, such as ${fallback}`, validation: (text) => /^\d{1,20}$/.test(text.trim()) }),
    Config.map((text) => BigInt(text.trim())),
    Config.withDefault(fallback)
  )

/** A secret that must be there and not empty. */
const requiredSecret = (name: string, why: string) =>
  Effect.flatMap(Config.option(Config.redacted(name)), (secret) =>
    Option.match(Option.filter(secret, (value) => Redacted.value(value).trim() !== ""), {
      onNone: () => Effect.fail(ConfigError.MissingData([name], `${name} is required ${why}`)),
      onSome: Effect.succeed
    }))

const requestTimeout = Config.integer("ENERGY_PROVIDER_TIMEOUT_MS").pipe(
  Config.validate({ message: "ENERGY_PROVIDER_TIMEOUT_MS must be an integer of at least 1 (milliseconds)", validation: (n) => n >= 1 }),
  Config.withDefault(10_000),
  Config.map(Duration.millis)
)

/** Where the service's simulated nile node listens: the node URL if set, else TRON_SIM_HOST:TRON_SIM_PORT. */
const simulatedNodeUrl = Effect.gen(function*() {
  const nodeUrl = yield* Config.option(baseUrl("TRON_NILE_NODE_URL"))
  if (Option.isSome(nodeUrl)) return nodeUrl.value
  const host = yield* Config.string("TRON_SIM_HOST").pipe(Config.withDefault("127.0.0.1"))
  const port = yield* Config.port("TRON_SIM_PORT").pipe(Config.withDefault(8090))
  return `http://${host}:${port}`
})

export const energyProviderSettings = (network: Network): Effect.Effect<EnergyProviderSettings, ConfigError.ConfigError> =>
  Effect.gen(function*() {
    const name = nameOf(network)
    const chosen = yield* kindOf(name)
    const nodeUrlSet = Option.isSome(yield* Config.option(Config.string("TRON_NILE_NODE_URL")))
    const kind = Option.getOrElse(chosen, (): Kind => (network === "nile" && !nodeUrlSet ? "sim" : "none"))
    const timeout = yield* requestTimeout
    if (kind === "none") return { kind, network }
    if (kind === "sim") {
      if (network === "main") {
        return yield* Effect.fail(ConfigError.InvalidData([name], `${name}=sim: the simulated provider serves test networks only; use catfee or none`))
      }
      const url = yield* Config.option(baseUrl(nameOf(network, "URL")))
      const resolved = Option.isSome(url) ? url.value : yield* simulatedNodeUrl
      return { kind, network, config: SimEnergyProvider.defaultSimProviderConfig(resolved, { requestTimeout: timeout }) }
    }
    const why = `with ${name}=catfee (CatFee: User Center, API Settings)`
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

/** One line for the start-up log; never a secret. */
export const describeSettings = (settings: EnergyProviderSettings): string => {
  switch (settings.kind) {
    case "none":
      return `energy provider for ${settings.network}: none (rentals refused)`
    case "sim":
      return `energy provider for ${settings.network}: the simulated provider at ${settings.config.baseUrl}/provider/v1`
    case "catfee":
      return `energy provider for ${settings.network}: CatFee at ${settings.config.baseUrl}`
  }
}

export const layerFromSettings = (settings: EnergyProviderSettings): Layer.Layer<EnergyProvider, never, HttpClient.HttpClient> => {
  switch (settings.kind) {
    case "none":
      return Layer.succeed(EnergyProvider, noEnergyProvider(settings.network))
    case "sim":
      return SimEnergyProvider.layer(settings.config)
    case "catfee":
      return CatFee.layer(settings.config)
  }
}

/**
 * The EnergyProvider of `network` as configured, over the fetch HTTP client; for the worker.
 * Invalid settings fail at start with a message naming the variable.
 */
export const energyProviderLayer = (network: Network): Layer.Layer<EnergyProvider, ConfigError.ConfigError> =>
  Layer.unwrapEffect(
    Effect.map(
      Effect.tap(energyProviderSettings(network), (settings) => Effect.log(describeSettings(settings))),
      layerFromSettings
    )
  ).pipe(Layer.provide(FetchHttpClient.layer))
