import { Chain } from "@collector/core"
import { FetchHttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Option, Redacted } from "effect"
import { delay, HttpResponse } from "msw"
import { makeNodeClient } from "./NodeClient.js"
import type { NodeConfig } from "./NodeConfig.js"
import { fullNodeUrl, jsonResponse, makeFakeNode, solidityUrl } from "./testing/FakeNode.js"
import { testNodeConfig, useFakeNodeServer } from "./testing/TestChain.js"

const server = useFakeNodeServer()

const clientWith = (overrides: Partial<NodeConfig> = {}) =>
  makeNodeClient(testNodeConfig("main", { requestTimeout: Duration.millis(300), ...overrides })).pipe(Effect.provide(FetchHttpClient.layer))

/** Replies with each of `responses` in turn, then repeats the last. */
const sequence = (...responses: ReadonlyArray<() => Response>) => {
  let i = 0
  return () => responses[Math.min(i++, responses.length - 1)]!()
}

describe("NodeClient", () => {
  it.live("POSTs the JSON body with the API key header, to the full or solidity node by path", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/getblock", { ok: "full" })
      node.on("/walletsolidity/getblock", { ok: "solidity" })
      const client = yield* clientWith({ apiKey: Option.some(Redacted.make("secret-key")) })
      expect(yield* client.post("/wallet/getblock", { detail: false })).toEqual({ ok: "full" })
      expect(yield* client.post("/walletsolidity/getblock", { detail: false })).toEqual({ ok: "solidity" })
      expect(node.seen.map((r) => r.url)).toEqual([`${fullNodeUrl}/wallet/getblock`, `${solidityUrl}/walletsolidity/getblock`])
      expect(node.seen[0]!.body).toEqual({ detail: false })
      expect(node.seen[0]!.headers.get("content-type")).toBe("application/json")
      for (const request of node.seen) expect(request.headers.get("TRON-PRO-API-KEY")).toBe("secret-key")
    }))

  it.live("sends no API key header when none is configured", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/getnowblock", {})
      yield* (yield* clientWith()).post("/wallet/getnowblock", {})
      expect(node.seen[0]!.headers.has("TRON-PRO-API-KEY")).toBe(false)
    }))

  it.live("retries 429 and 503, then returns the answer", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/getblock", sequence(
        () => jsonResponse({ Error: "rate limited" }, 429),
        () => new HttpResponse("busy", { status: 503 }),
        () => jsonResponse({ blockID: "ok" })
      ))
      expect(yield* (yield* clientWith()).post("/wallet/getblock", {})).toEqual({ blockID: "ok" })
      expect(node.seen).toHaveLength(3)
    }))

  it.live("gives up after the configured retries with ChainUnavailable", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/getblock", () => new HttpResponse("bad gateway", { status: 502 }))
      const error = yield* (yield* clientWith({ retries: 2 })).post("/wallet/getblock", {}).pipe(Effect.flip)
      expect(error).toBeInstanceOf(Chain.ChainUnavailable)
      expect(error.reason).toBe("/wallet/getblock: HTTP 502 (after 3 attempts)")
      expect(node.seen).toHaveLength(3)
    }))

  it.live("retries a transport failure", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/getblock", sequence(() => HttpResponse.error(), () => jsonResponse({ blockID: "ok" })))
      expect(yield* (yield* clientWith()).post("/wallet/getblock", {})).toEqual({ blockID: "ok" })
      expect(node.seen).toHaveLength(2)
    }))

  it.live("does not retry other HTTP statuses", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/getblock", () => new HttpResponse("Unauthorized", { status: 401 }))
      const error = yield* (yield* clientWith()).post("/wallet/getblock", {}).pipe(Effect.flip)
      expect(error).toEqual(new Chain.ChainUnavailable({ reason: "/wallet/getblock: HTTP 401 Unauthorized" }))
      expect(node.seen).toHaveLength(1)
    }))

  it.live("sends a `once` request a single time even when it could be retried", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/broadcasthex", () => new HttpResponse("busy", { status: 503 }))
      const error = yield* (yield* clientWith()).post("/wallet/broadcasthex", { transaction: "00" }, { once: true }).pipe(Effect.flip)
      expect(error).toEqual(new Chain.ChainUnavailable({ reason: "/wallet/broadcasthex: HTTP 503" }))
      expect(node.seen).toHaveLength(1)
    }))

  it.live("times out a silent node with ChainUnavailable, after retrying", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/getblock", async () => {
        await delay(5_000)
        return jsonResponse({})
      })
      const started = Date.now()
      const error = yield* (yield* clientWith({ requestTimeout: Duration.millis(100), retries: 1 })).post("/wallet/getblock", {}).pipe(Effect.flip)
      expect(error).toEqual(new Chain.ChainUnavailable({ reason: "/wallet/getblock: no reply within 100ms (after 2 attempts)" }))
      expect(node.seen).toHaveLength(2)
      expect(Date.now() - started).toBeLessThan(2_000)
    }))

  it.live("rejects a 200 reply that is not JSON", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/getblock", () => new HttpResponse("<html>maintenance</html>", { status: 200 }))
      const error = yield* (yield* clientWith()).post("/wallet/getblock", {}).pipe(Effect.flip)
      expect(error).toEqual(new Chain.ChainRejected({ reason: "/wallet/getblock returned a body that is not JSON: <html>maintenance</html>" }))
      expect(node.seen).toHaveLength(1)
    }))

  it.live("keeps to the request budget: a one-second burst, then the rate", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/getblock", {})
      node.on("/walletsolidity/getblock", {})
      const client = yield* clientWith({ requestsPerSecond: 5 })
      const started = Date.now()
      // 5 go at once; the other 3 wait 200, 400 and 600 ms.
      yield* Effect.all(Array.from({ length: 8 }, () => client.post("/wallet/getblock", {})), { concurrency: "unbounded" })
      const elapsed = Date.now() - started
      expect(elapsed).toBeGreaterThanOrEqual(590)
      expect(elapsed).toBeLessThan(1_500)
      // The solidity node is another host with its own budget.
      const solidityStarted = Date.now()
      yield* Effect.all(Array.from({ length: 5 }, () => client.post("/walletsolidity/getblock", {})), { concurrency: "unbounded" })
      expect(Date.now() - solidityStarted).toBeLessThan(150)
    }))

  it.live("shares one budget between the full and solidity APIs on one host", () =>
    Effect.gen(function*() {
      const node = makeFakeNode(server)
      node.on("/wallet/getblock", {})
      node.on("/walletsolidity/getblock", {}, fullNodeUrl)
      const client = yield* clientWith({ requestsPerSecond: 4, solidityUrl: fullNodeUrl })
      const started = Date.now()
      // 4 go at once; the other 2 wait 250 and 500 ms.
      yield* Effect.all(
        Array.from({ length: 6 }, (_, i) => client.post(i % 2 === 0 ? "/wallet/getblock" : "/walletsolidity/getblock", {})),
        { concurrency: "unbounded" }
      )
      expect(Date.now() - started).toBeGreaterThanOrEqual(490)
      expect(node.seen.map((r) => new URL(r.url).origin)).toEqual(Array(6).fill(fullNodeUrl))
    }))
})
