import { FetchHttpClient } from "@effect/platform"
import { afterAll, afterEach, beforeAll } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { setupServer } from "msw/node"
import { defaultNodeConfig, type NodeConfig } from "../NodeConfig.js"
import * as TronNodeChain from "../TronNodeChain.js"
import { fullNodeUrl, solidityUrl } from "./FakeNode.js"

/** An msw server for the current test file; any request without a handler fails the test. */
export const useFakeNodeServer = () => {
  const server = setupServer()
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }))
  afterEach(() => server.resetHandlers())
  afterAll(() => server.close())
  return server
}

/** Node settings for tests: the fake hosts, a generous budget, short backoff. */
export const testNodeConfig = (network: "main" | "nile" = "main", overrides: Partial<NodeConfig> = {}) =>
  defaultNodeConfig(network, {
    fullNodeUrl,
    solidityUrl,
    retryBaseDelay: Duration.millis(5),
    requestTimeout: Duration.seconds(2),
    requestsPerSecond: 1000,
    ...overrides
  })

/** The real adapter over Effect's fetch client, which msw intercepts. */
export const chainWith = (network: "main" | "nile" = "main", overrides: Partial<NodeConfig> = {}) =>
  TronNodeChain.make(testNodeConfig(network, overrides)).pipe(Effect.provide(FetchHttpClient.layer))

/** Hex of UTF-8 text, as java-tron prints messages without `visible`. */
export const hexOf = (text: string) => Buffer.from(text, "utf8").toString("hex")
