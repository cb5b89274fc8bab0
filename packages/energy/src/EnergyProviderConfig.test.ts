import { Energy, type Kernel } from "@collector/core"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Redacted } from "effect"
import { energyProviderConfig, energyProviderLayerConfig } from "./EnergyProviderConfig.js"

const withEnv = (env: Record<string, string>) => Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))

const settings = (network: Kernel.Network, env: Record<string, string> = {}) => energyProviderConfig(network).pipe(withEnv(env))

/** The start-up failure's text. */
const failure = (network: Kernel.Network, env: Record<string, string>) => Effect.map(Effect.flip(settings(network, env)), String)

describe("energy provider settings", () => {
  it.effect("defaults: nile is the simulated provider on the simulated node, main has none", () =>
    Effect.gen(function*() {
      expect(yield* settings("nile")).toMatchObject({ kind: "sim", network: "nile", config: { baseUrl: "http://127.0.0.1:8090", minimumEnergy: 10_000n } })
      expect(yield* settings("nile", { TRON_SIM_HOST: "10.0.0.5", TRON_SIM_PORT: "9090", ENERGY_PROVIDER_TIMEOUT_MS: "2500" })).toMatchObject({
        config: { baseUrl: "http://10.0.0.5:9090", requestTimeout: { value: { _tag: "Millis", millis: 2500 } } }
      })
      expect(yield* settings("main")).toEqual({ kind: "none", network: "main" })
    }))

  it.effect("a nile node of its own means no provider unless told; sim then follows the node URL", () =>
    Effect.gen(function*() {
      expect((yield* settings("nile", { TRON_NILE_NODE_URL: "https://nile.trongrid.io" })).kind).toBe("none")
      expect(yield* settings("nile", { TRON_NILE_NODE_URL: "http://127.0.0.1:8095/", ENERGY_PROVIDER_NILE: "sim" })).toMatchObject({
        kind: "sim",
        config: { baseUrl: "http://127.0.0.1:8095" }
      })
      expect(yield* settings("nile", { ENERGY_PROVIDER_NILE: "SIM", ENERGY_PROVIDER_NILE_URL: "http://sim.local:8090" })).toMatchObject({
        config: { baseUrl: "http://sim.local:8090" }
      })
    }))

  it.effect("catfee: key and secret required and redacted, the network's base URL, quote prices in SUN", () =>
    Effect.gen(function*() {
      const catfee = yield* settings("main", {
        ENERGY_PROVIDER_MAIN: "catfee",
        ENERGY_PROVIDER_MAIN_API_KEY: "k-1",
        ENERGY_PROVIDER_MAIN_API_SECRET: "s-1",
        ENERGY_PROVIDER_MAIN_QUOTE_PRICE_SUN: "85"
      })
      expect(catfee).toMatchObject({ kind: "catfee", config: { baseUrl: "https://api.catfee.io", quotePricePerEnergy: 85n, quoteActivationCost: 1_500_000n } })
      if (catfee.kind !== "catfee") throw new Error("expected catfee")
      expect(Redacted.value(catfee.config.apiSecret)).toBe("s-1")
      expect(String(catfee.config.apiSecret)).not.toContain("s-1")
      expect(JSON.stringify(catfee, (_, v) => (typeof v === "bigint" ? v.toString() : v))).not.toContain("s-1")
      const nile = yield* settings("nile", { ENERGY_PROVIDER_NILE: "catfee", ENERGY_PROVIDER_NILE_API_KEY: "k", ENERGY_PROVIDER_NILE_API_SECRET: "s" })
      expect(nile).toMatchObject({ config: { baseUrl: "https://nile.catfee.io" } })
    }))

  it.effect("refuses readable: unknown kind, sim on main, missing secret, bad URL, bad amounts", () =>
    Effect.gen(function*() {
      expect(yield* failure("nile", { ENERGY_PROVIDER_NILE: "feee" })).toContain("ENERGY_PROVIDER_NILE must be sim, sim-b, catfee, merx or none (feee.io and others are not supported)")
      expect(yield* failure("main", { ENERGY_PROVIDER_MAIN: "sim" })).toContain("the simulated provider serves test networks only")
      expect(yield* failure("main", { ENERGY_PROVIDER_MAIN: "catfee", ENERGY_PROVIDER_MAIN_API_KEY: "k" })).toContain(
        "ENERGY_PROVIDER_MAIN_API_SECRET is required with ENERGY_PROVIDER_MAIN=catfee"
      )
      expect(yield* failure("main", { ENERGY_PROVIDER_MAIN: "catfee", ENERGY_PROVIDER_MAIN_API_KEY: " ", ENERGY_PROVIDER_MAIN_API_SECRET: "s" })).toContain(
        "ENERGY_PROVIDER_MAIN_API_KEY is required"
      )
      expect(yield* failure("nile", { ENERGY_PROVIDER_NILE_URL: "ftp://x" })).toContain("ENERGY_PROVIDER_NILE_URL must be an http(s) URL")
      expect(
        yield* failure("main", {
          ENERGY_PROVIDER_MAIN: "catfee",
          ENERGY_PROVIDER_MAIN_API_KEY: "k",
          ENERGY_PROVIDER_MAIN_API_SECRET: "s",
          ENERGY_PROVIDER_MAIN_QUOTE_PRICE_SUN: "0.5"
        })
      ).toContain("ENERGY_PROVIDER_MAIN_QUOTE_PRICE_SUN must be a whole number of SUN")
      expect(yield* failure("nile", { ENERGY_PROVIDER_TIMEOUT_MS: "0" })).toContain("ENERGY_PROVIDER_TIMEOUT_MS must be a whole number of at least 1 (milliseconds)")
    }))

  it.effect("energyProviderLayerConfig builds the configured adapter; none refuses rentals", () =>
    Effect.gen(function*() {
      const provider = (network: Kernel.Network, env: Record<string, string>) =>
        Effect.provide(Energy.EnergyProvider, Layer.provide(energyProviderLayerConfig(network), Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))))
      expect((yield* provider("nile", {})).name).toBe("sim")
      const none = yield* provider("main", {})
      expect(none.name).toBe("none")
      const refused = yield* Effect.flip(none.order("o-1", { receiver: "T", energy: 65_000n, activate: false }))
      expect(refused).toMatchObject({ _tag: "ProviderRejected", reason: "no energy provider configured for main" })
      const catfee = yield* provider("main", { ENERGY_PROVIDER_MAIN: "catfee", ENERGY_PROVIDER_MAIN_API_KEY: "k", ENERGY_PROVIDER_MAIN_API_SECRET: "s" })
      expect(catfee).toMatchObject({ name: "catfee", minimumEnergy: 65_000n })
    }))

  it.effect("ENERGY_PROVIDERS_<NETWORK>: an ordered list, each with its own settings, ranked with a cool-down", () =>
    Effect.gen(function*() {
      const env = {
        ENERGY_PROVIDERS_MAIN: "merx, catfee",
        ENERGY_PROVIDER_MAIN_MERX_API_KEY: "mk",
        ENERGY_PROVIDER_MAIN_MERX_MAX_PRICE_SUN: "90",
        ENERGY_PROVIDER_MAIN_API_KEY: "k",
        ENERGY_PROVIDER_MAIN_API_SECRET: "s",
        ENERGY_PROVIDER_COOL_DOWN_MS: "60000"
      }
      const ranked = yield* settings("main", env)
      expect(ranked).toMatchObject({
        kind: "ranked",
        network: "main",
        providers: [
          { kind: "merx", config: { baseUrl: "https://merx.exchange/api/v1", maxPricePerEnergy: { _tag: "Some", value: 90n } } },
          { kind: "catfee", config: { baseUrl: "https://api.catfee.io" } }
        ],
        coolDown: { value: { _tag: "Millis", millis: 60000 } }
      })
      expect(ranked.kind === "ranked" && Redacted.value(ranked.providers[0]!.kind === "merx" ? ranked.providers[0]!.config.apiKey : Redacted.make(""))).toBe("mk")
      // A list of one is that provider alone, as ENERGY_PROVIDER_<NETWORK> would choose it.
      expect(yield* settings("main", { ENERGY_PROVIDERS_MAIN: "merx", ENERGY_PROVIDER_MAIN_MERX_API_KEY: "mk" })).toMatchObject({ kind: "merx" })
      const layered = yield* Effect.provide(Energy.EnergyProvider, Layer.provide(energyProviderLayerConfig("main"), Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))))
      expect(layered).toMatchObject({ name: "ranked(merx, catfee)", minimumEnergy: 65_000n, supportsActivation: true })
    }))

  it.effect("ENERGY_PROVIDERS_<NETWORK> refuses what it cannot use, naming the variable", () =>
    Effect.gen(function*() {
      expect(yield* failure("main", { ENERGY_PROVIDERS_MAIN: "merx,feee" })).toContain("ENERGY_PROVIDERS_MAIN must list one or more of sim, sim-b, catfee, merx")
      expect(yield* failure("main", { ENERGY_PROVIDERS_MAIN: "merx" })).toContain("ENERGY_PROVIDER_MAIN_MERX_API_KEY is required with merx in ENERGY_PROVIDERS_MAIN")
      expect(yield* failure("main", { ENERGY_PROVIDERS_MAIN: "catfee,sim", ENERGY_PROVIDER_MAIN_API_KEY: "k", ENERGY_PROVIDER_MAIN_API_SECRET: "s" })).toContain(
        "sim in ENERGY_PROVIDERS_MAIN: the simulated provider serves test networks only"
      )
      expect(yield* failure("nile", { ENERGY_PROVIDERS_NILE: "sim", ENERGY_PROVIDER_NILE: "sim" })).toContain(
        "ENERGY_PROVIDER_NILE and ENERGY_PROVIDERS_NILE are both set: keep ENERGY_PROVIDERS_NILE only"
      )
      expect(yield* failure("main", { ENERGY_PROVIDER_MAIN: "merx", ENERGY_PROVIDER_MAIN_MERX_API_KEY: "k", ENERGY_PROVIDER_MAIN_MERX_MAX_PRICE_SUN: "0" })).toContain(
        "ENERGY_PROVIDER_MAIN_MERX_MAX_PRICE_SUN must be a whole number of SUN per energy above 0"
      )
    }))
})
