import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Option, Redacted } from "effect"
import { defaultNodeConfig, nodeConfig } from "./NodeConfig.js"

const load = (network: "main" | "nile", env: Record<string, string>) =>
  Effect.withConfigProvider(nodeConfig(network), ConfigProvider.fromMap(new Map(Object.entries(env))))

const failure = (network: "main" | "nile", env: Record<string, string>) =>
  load(network, env).pipe(Effect.flip, Effect.map((error) => error.toString()))

describe("nodeConfig", () => {
  it.effect("defaults to TronGrid and the tron.md USDT contracts", () =>
    Effect.gen(function*() {
      const main = yield* load("main", {})
      expect(main).toEqual(defaultNodeConfig("main"))
      expect(main.fullNodeUrl).toBe("https://api.trongrid.io")
      expect(main.solidityUrl).toBe("https://api.trongrid.io")
      expect(main.usdtContract).toBe("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t")
      expect(Option.isNone(main.apiKey)).toBe(true)
      expect(Duration.toMillis(main.requestTimeout)).toBe(10_000)
      expect(main.retries).toBe(3)
      expect(main.requestsPerSecond).toBe(10)
      const nile = yield* load("nile", {})
      expect(nile.fullNodeUrl).toBe("https://nile.trongrid.io")
      expect(nile.usdtContract).toBe("TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf")
    }))

  it.effect("reads the network's variables and the shared limits", () =>
    Effect.gen(function*() {
      const config = yield* load("nile", {
        TRON_NILE_NODE_URL: "http://10.0.0.5:8090/",
        TRON_NILE_SOLIDITY_URL: "http://10.0.0.5:8091",
        TRON_NILE_API_KEY: "key-1",
        TRON_NILE_USDT_CONTRACT: "TG3XXyExBkPp9nzdajDZsozEu4BkaSJozs",
        TRON_MAIN_NODE_URL: "http://ignored.example",
        TRON_REQUEST_TIMEOUT_MS: "2500",
        TRON_REQUEST_RETRIES: "0",
        TRON_REQUESTS_PER_SECOND: "2.5",
        // A node on a private network reached over plain HTTP, allowed by the operator.
        TRON_ALLOW_INSECURE_NODE: "true"
      })
      expect(config.network).toBe("nile")
      expect(config.fullNodeUrl).toBe("http://10.0.0.5:8090")
      expect(config.solidityUrl).toBe("http://10.0.0.5:8091")
      expect(Option.map(config.apiKey, Redacted.value)).toEqual(Option.some("key-1"))
      expect(config.usdtContract).toBe("TG3XXyExBkPp9nzdajDZsozEu4BkaSJozs")
      expect(Duration.toMillis(config.requestTimeout)).toBe(2500)
      expect(config.retries).toBe(0)
      expect(config.requestsPerSecond).toBe(2.5)
    }))

  it.effect("uses the node URL for the solidity API when only the node URL is set, and ignores an empty key", () =>
    Effect.gen(function*() {
      const config = yield* load("main", { TRON_MAIN_NODE_URL: "https://proxy.example/tron", TRON_MAIN_API_KEY: " " })
      expect(config.solidityUrl).toBe("https://proxy.example/tron")
      expect(Option.isNone(config.apiKey)).toBe(true)
    }))

  it.effect("names the variable and what is expected when a value is invalid", () =>
    Effect.gen(function*() {
      expect(yield* failure("main", { TRON_MAIN_NODE_URL: "api.trongrid.io" })).toContain(
        "TRON_MAIN_NODE_URL must be an http(s) URL such as https://api.trongrid.io or http://127.0.0.1:8090"
      )
      expect(yield* failure("nile", { TRON_NILE_SOLIDITY_URL: "ftp://x" })).toContain("TRON_NILE_SOLIDITY_URL must be an http(s) URL")
      expect(yield* failure("main", { TRON_MAIN_USDT_CONTRACT: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6T" })).toContain(
        "TRON_MAIN_USDT_CONTRACT must be a TRON Base58Check address"
      )
      expect(yield* failure("main", { TRON_REQUEST_TIMEOUT_MS: "0" })).toContain("TRON_REQUEST_TIMEOUT_MS must be a whole number of at least 1 (milliseconds)")
      expect(yield* failure("main", { TRON_REQUEST_RETRIES: "-1" })).toContain("TRON_REQUEST_RETRIES must be a whole number of at least 0")
      expect(yield* failure("main", { TRON_REQUESTS_PER_SECOND: "0" })).toContain("TRON_REQUESTS_PER_SECOND must be a number greater than 0")
    }))

  it.effect("a node on another machine must be https; plain HTTP to this machine is fine, or anywhere when the operator allows it", () =>
    Effect.gen(function*() {
      expect(yield* failure("nile", { TRON_NILE_NODE_URL: "http://node.example:8090" })).toContain(
        "TRON_NILE_NODE_URL must be https unless it is on this machine (127.0.0.1, ::1, localhost)"
      )
      expect(yield* failure("main", { TRON_MAIN_NODE_URL: "https://node.example", TRON_MAIN_SOLIDITY_URL: "http://10.1.2.3:8091" })).toContain(
        "TRON_MAIN_SOLIDITY_URL must be https"
      )
      for (const url of ["http://127.0.0.1:8090", "http://localhost:8090", "http://[::1]:8090", "http://127.8.9.10"]) {
        expect((yield* load("nile", { TRON_NILE_NODE_URL: url })).fullNodeUrl).toBe(url)
      }
      expect((yield* load("nile", { TRON_NILE_NODE_URL: "http://node.example:8090", TRON_ALLOW_INSECURE_NODE: "true" })).fullNodeUrl).toBe(
        "http://node.example:8090"
      )
      // A name that merely starts like loopback is another machine.
      expect(yield* failure("nile", { TRON_NILE_NODE_URL: "http://127.0.0.1.example.com" })).toContain("must be https")
    }))

  it.effect("main's USDT contract is Tether's and cannot be pointed elsewhere; nile's can", () =>
    Effect.gen(function*() {
      expect(yield* failure("main", { TRON_MAIN_USDT_CONTRACT: "TG3XXyExBkPp9nzdajDZsozEu4BkaSJozs" })).toContain(
        "TRON_MAIN_USDT_CONTRACT cannot be changed on main: mainnet's USDT is TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
      )
      expect((yield* load("main", { TRON_MAIN_USDT_CONTRACT: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" })).usdtContract).toBe("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t")
    }))
})
