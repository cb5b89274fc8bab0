import { HttpClient, HttpClientError, HttpClientResponse } from "@effect/platform"
import { Effect, Layer } from "effect"
import type { ProviderSettings } from "./ProviderBook.js"
import type { SimConfig } from "./SimConfig.js"
import { build, type Reply, respond } from "./SimNetwork.js"

/** The URL the in-process client answers for; any other host is refused as unreachable. */
export const url = "http://sim.in-process"

const decoder = new TextDecoder()
const encoder = new TextEncoder()

/**
 * A reply in the shape of a web `Response` as far as the platform's client response reads one
 * (status, headers, the body as text or bytes), without building one: a real `Response` costs a
 * body stream and undici's bookkeeping per request, a visible share of a simulated run, where
 * every node call is answered here.
 */
const webReply = (reply: Reply): Response => {
  const text = reply.text
  return {
    status: reply.status,
    headers: { "content-type": reply.status === 200 || reply.status === 400 ? "application/json" : "text/plain" },
    body: null,
    text: () => Promise.resolve(text),
    json: () => Promise.resolve(JSON.parse(text)),
    arrayBuffer: () => Promise.resolve(encoder.encode(text).buffer),
    formData: () => Promise.reject(new Error("the simulator answers no form data"))
  } as unknown as Response
}

/**
 * The simulated network answering in this process: an HttpClient that hands each request to the
 * simulator directly, with no socket and no timer of its own, so the node adapter and the energy
 * provider run unchanged while everything happens on the caller's fibers and Clock (a TestClock
 * drives the node's outages and held replies; a seeded run replays exactly). A reply the
 * simulator drops (a closed connection) is a transport error, as it would be over HTTP. The second
 * provider (`sim-b`, under `/provider/b/v1`) answers here too, as over HTTP.
 */
export const make = (config: SimConfig, provider?: Partial<ProviderSettings>, secondProvider?: Partial<ProviderSettings>) =>
  Effect.map(build(config, provider, secondProvider), ({ chain, provider, secondProvider }) => {
    const answer = (reply: Reply, request: Parameters<Parameters<typeof HttpClient.make>[0]>[0]) =>
      reply.drop === true
        ? Effect.fail(new HttpClientError.RequestError({ request, reason: "Transport", description: "the simulator closed the connection" }))
        : Effect.succeed(HttpClientResponse.fromWeb(request, webReply(reply)))
    const client = HttpClient.make((request, target) => {
      if (target.origin !== url) {
        return Effect.fail(new HttpClientError.RequestError({ request, reason: "Transport", description: `no simulator at ${target.origin}` }))
      }
      const body = request.body._tag === "Uint8Array" ? decoder.decode(request.body.body) : ""
      return Effect.flatMap(respond(chain, provider, target.pathname, body, secondProvider), (reply) => answer(reply, request))
    })
    return { url, chain, provider, secondProvider, client, layer: Layer.succeed(HttpClient.HttpClient, client) }
  })
