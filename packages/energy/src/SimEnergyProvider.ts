import { Energy, Kernel } from "@collector/core"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Duration, Effect, Either, Layer, Option, Schema } from "effect"
import { type ProviderResponse, send } from "./ProviderHttp.js"
import { OrderReply, orderOf, QueryReply, QuoteReply, quoteOf, Refusal } from "./SimProviderWire.js"

/**
 * The EnergyProvider port over the simulated node's provider API (`/provider/v1/*`, see
 * docs/energy-providers.md). A timeout, a connection failure, a 5xx or an unreadable answer to an
 * order leaves the outcome unknown (ProviderUnavailable): `find` with the same order number
 * tells. A 4xx is a refusal (ProviderRejected): nothing was ordered.
 */

export interface SimProviderConfig {
  /** The simulated node, e.g. http://127.0.0.1:8090. No trailing slash. */
  readonly baseUrl: string
  readonly requestTimeout: Duration.Duration
  /** The provider's smallest order (the simulator's default is 10,000). */
  readonly minimumEnergy: bigint
  /** `sim`, or `sim-b` for the node's second provider (served under `/provider/b/v1`). */
  readonly name: "sim" | "sim-b"
}

const apiPath = (name: SimProviderConfig["name"]) => (name === "sim" ? "/provider/v1" : "/provider/b/v1")

export const defaultSimProviderConfig = (baseUrl: string, overrides: Partial<SimProviderConfig> = {}): SimProviderConfig => ({
  baseUrl,
  requestTimeout: Duration.seconds(10),
  minimumEnergy: 10_000n,
  name: "sim",
  ...overrides
})

const decode = <A, I>(schema: Schema.Schema<A, I>, text: string): Either.Either<A, string> => {
  try {
    return Either.mapLeft(Schema.decodeUnknownEither(schema)(Kernel.LosslessJson.parse(text, "allAsText")), (error) => error.message)
  } catch (error) {
    return Either.left(`not JSON: ${String(error)}`)
  }
}

const rentalBody = (request: Energy.RentalRequest) => ({ receiver: request.receiver, energy: request.energy.toString(), activate: request.activate })

export const make = (config: SimProviderConfig): Effect.Effect<Energy.EnergyProviderService, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient

    const call = (path: string, body: unknown) =>
      send(
        client,
        HttpClientRequest.post(`${config.baseUrl}${apiPath(config.name)}/${path}`).pipe(HttpClientRequest.bodyUnsafeJson(body)),
        config.requestTimeout,
        `sim provider ${path}`
      )

    /** A 2xx read with `schema`; a 4xx is the provider's refusal. */
    const judge = <A, I>(what: string, schema: Schema.Schema<A, I>) =>
    (response: ProviderResponse): Effect.Effect<A, Energy.ProviderUnavailable | Energy.ProviderRejected> => {
      if (response.status >= 200 && response.status < 300) {
        return Either.match(decode(schema, response.text), {
          onLeft: (error) => Effect.fail(new Energy.ProviderUnavailable({ reason: `${what}: unreadable answer (${error})` })),
          onRight: (value) => Effect.succeed(value)
        })
      }
      const refusal = decode(Refusal, response.text)
      const reason = Either.match(refusal, {
        onLeft: () => `${what}: HTTP ${response.status} ${response.text.slice(0, 200)}`.trim(),
        onRight: (r) => `${what}: ${r.code}: ${r.error}`
      })
      return Effect.fail(new Energy.ProviderRejected({ reason }))
    }

    return {
      name: config.name,
      supportsActivation: true,
      minimumEnergy: config.minimumEnergy,
      quote: (request) => Effect.map(Effect.flatMap(call("quote", rentalBody(request)), judge("quote", QuoteReply)), quoteOf),
      order: (orderId, request) =>
        Effect.map(Effect.flatMap(call("order", { order_no: orderId, ...rentalBody(request) }), judge(`order ${orderId}`, OrderReply)), (reply) =>
          orderOf(reply.order)),
      find: (orderId) =>
        call("order/query", { order_no: orderId }).pipe(
          Effect.flatMap(judge(`find ${orderId}`, QueryReply)),
          // The query only fails on our own bad request; the order's fate stays unknown.
          Effect.catchTag("ProviderRejected", (error) => Effect.fail(new Energy.ProviderUnavailable({ reason: error.reason }))),
          Effect.map((reply) => (reply.found ? Option.some(orderOf(reply.order)) : Option.none()))
        )
    }
  })

export const layer = (config: SimProviderConfig): Layer.Layer<Energy.EnergyProvider, never, HttpClient.HttpClient> =>
  Layer.effect(Energy.EnergyProvider, make(config))
