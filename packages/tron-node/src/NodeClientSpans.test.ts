import { makeRecordingTracer } from "@collector/core/testing"
import { FetchHttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Exit, Option, Redacted } from "effect"
import { HttpResponse } from "msw"
import { makeNodeClient } from "./NodeClient.js"
import { jsonResponse, makeFakeNode } from "./testing/FakeNode.js"
import { testNodeConfig, useFakeNodeServer } from "./testing/TestChain.js"

const server = useFakeNodeServer()

const clientWith = () =>
  makeNodeClient(testNodeConfig("nile", { requestTimeout: Duration.millis(300), apiKey: Option.some(Redacted.make("secret-key")) })).pipe(
    Effect.provide(FetchHttpClient.layer)
  )

describe("NodeClient spans", () => {
  it.live("while tracing is on: one span per request, retries inside, with its endpoint and outcome", () =>
    Effect.gen(function*() {
      const recording = makeRecordingTracer()
      const node = makeFakeNode(server)
      let calls = 0
      node.on("/wallet/getblock", () => (++calls === 1 ? new HttpResponse("busy", { status: 503 }) : jsonResponse({ blockID: "ok" })))
      node.on("/wallet/getnowblock", () => new HttpResponse("not json", { status: 200 }))
      node.on("/walletsolidity/getnowblock", () => new HttpResponse("bad request", { status: 400 }))
      yield* Effect.gen(function*() {
        const client = yield* clientWith()
        yield* client.post("/wallet/getblock", { num: 1 })
        yield* Effect.exit(client.post("/wallet/getnowblock", {}))
        yield* Effect.exit(client.postText("/walletsolidity/getnowblock", {}))
      }).pipe(Effect.withTracer(recording.tracer))
      // The first request was tried twice: still one span.
      expect(node.seen).toHaveLength(4)
      expect(recording.ended.map((span) => [span.name, span.kind, span.attributes.get("tron.node.endpoint"), span.attributes.get("tron.node.outcome"), Exit.isSuccess(span.exit)])).toEqual([
        ["tron.node /wallet/getblock", "client", "/wallet/getblock", "ok", true],
        ["tron.node /wallet/getnowblock", "client", "/wallet/getnowblock", "rejected", false],
        ["tron.node /walletsolidity/getnowblock", "client", "/walletsolidity/getnowblock", "unavailable", false]
      ])
      for (const span of recording.ended) expect(span.attributes.get("tron.network")).toBe("nile")
      // Neither the API key nor a header: the HTTP client's own span stays off.
      expect(JSON.stringify(recording.ended.map((span) => [...span.attributes]))).not.toContain("secret-key")
    }))

  it.live("while tracing is off: no span at all", () =>
    Effect.gen(function*() {
      const recording = makeRecordingTracer()
      const node = makeFakeNode(server)
      node.on("/wallet/getnowblock", () => jsonResponse({ blockID: "ok" }))
      yield* Effect.gen(function*() {
        yield* (yield* clientWith()).post("/wallet/getnowblock", {})
      }).pipe(Effect.withTracer(recording.tracer), Effect.withTracerEnabled(false))
      expect(node.seen).toHaveLength(1)
      expect(recording.ended).toEqual([])
    }))
})
