import { Energy, Kernel } from "@collector/core"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { type Duration, Effect, Either, Layer, Option, Redacted, Schema } from "effect"
import { ErrorReply, OrderReply, orderOf, PreviewReply } from "./MerxWire.js"
import { type ProviderResponse, send } from "./ProviderHttp.js"
import { SentOrders } from "./SentOrders.js"

/**
 * The EnergyProvider port over Merx's REST API (https://merx.exchange/docs/api; see
 * docs/fees.md, "Rental providers"). Merx routes each order to the cheapest of the providers it
 * connects to.
 *
 * - Quote: `GET /orders/preview?resource=ENERGY&amount&duration` answers the best offer and its
 *   total (`cost_trx`); `no_providers` or no `best` is a refusal.
 * - Order: `POST /orders` (MARKET, one hour) with our order number as `Idempotency-Key`: Merx
 *   answers the same key within 24 hours with the original order and places nothing new.
 * - Lookup: `GET /orders/{id}` by Merx's id. Merx documents no lookup by idempotency key, so for
 *   a number whose answer was lost `find` submits the remembered request again under the same
 *   key: the original order if Merx took it, or the order now (the retry the sweeper would make
 *   under the same number anyway; never a second order). A number this process never sent (a
 *   restart in between) cannot be looked up: `find` stays unavailable and `order` again under the
 *   same number is the way out, within Merx's 24 hours.
 *
 * Every request but the preview carries the key in `X-API-Key`. HTTP 401/403 and other 4xx are
 * refusals (nothing ordered); timeouts, 429 and 5xx leave the outcome unknown (ProviderHttp).
 */

export interface MerxConfig {
  /** https://merx.exchange/api/v1; no trailing slash. */
  readonly baseUrl: string
  readonly apiKey: Redacted.Redacted
  readonly requestTimeout: Duration.Duration
  /** Sent as `max_price_sun` (SUN per energy) with previews and orders, when set. */
  readonly maxPricePerEnergy: Option.Option<bigint>
}

export const merxBaseUrl = "https://merx.exchange/api/v1"

/** "Energy orders require a minimum of 65,000 units." */
export const merxMinimumEnergy = 65_000n

const durationSeconds = 3600

interface Sent {
  readonly request: Energy.RentalRequest
  readonly merxId: Option.Option<string>
}

const decode = <A, I>(schema: Schema.Schema<A, I>, text: string): Either.Either<A, string> => {
  try {
    return Either.mapLeft(Schema.decodeUnknownEither(schema)(Kernel.LosslessJson.parse(text, "allAsText")), (error) => error.message)
  } catch (error) {
    return Either.left(`not JSON: ${String(error)}`)
  }
}

const refusalText = (response: ProviderResponse) =>
  Either.match(decode(ErrorReply, response.text), {
    onLeft: () => response.text.slice(0, 200),
    onRight: ({ error }) => [error.code, error.message].filter((part) => part !== null && part !== "").join(": ")
  })

export const make = (config: MerxConfig): Effect.Effect<Energy.EnergyProviderService, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    // In insertion order, so the oldest is dropped first once full.
    const sent = new SentOrders<Sent>()

    const authorised = (request: HttpClientRequest.HttpClientRequest) => HttpClientRequest.setHeader(request, "X-API-Key", Redacted.value(config.apiKey))

    /** A 2xx read with `schema`; any other answer is Merx's refusal. */
    const judge = <A, I>(what: string, schema: Schema.Schema<A, I>) => (response: ProviderResponse): Effect.Effect<A, Energy.ProviderUnavailable | Energy.ProviderRejected> => {
      if (response.status < 200 || response.status >= 300) {
        const hint = response.status === 401 || response.status === 403 ? " (check the API key and its permissions)" : ""
        return Effect.fail(new Energy.ProviderRejected({ reason: `${what}: HTTP ${response.status} ${refusalText(response)}${hint}`.trim() }))
      }
      return Either.match(decode(schema, response.text), {
        onLeft: (error) => Effect.fail(new Energy.ProviderUnavailable({ reason: `${what}: unreadable answer (${error})` })),
        onRight: Effect.succeed
      })
    }

    const tooSmall = (energy: bigint) => new Energy.ProviderRejected({ reason: `merx: at least ${merxMinimumEnergy} energy per order, asked ${energy}` })

    const maxPrice: Array<[string, string]> = Option.match(config.maxPricePerEnergy, { onNone: () => [], onSome: (price) => [["max_price_sun", price.toString()]] })

    const quote: Energy.EnergyProviderService["quote"] = (request) => {
      if (request.activate) return Effect.fail(new Energy.ProviderRejected({ reason: "merx: cannot activate a wallet" }))
      if (request.energy < merxMinimumEnergy) return Effect.fail(tooSmall(request.energy))
      const query = new URLSearchParams([["resource", "ENERGY"], ["amount", request.energy.toString()], ["duration", String(durationSeconds)], ...maxPrice] satisfies Array<[string, string]>)
      const what = "merx preview"
      return send(client, HttpClientRequest.get(`${config.baseUrl}/orders/preview?${query.toString()}`), config.requestTimeout, what).pipe(
        Effect.flatMap(judge(what, PreviewReply)),
        Effect.flatMap((reply) =>
          reply.best === null || reply.no_providers
            ? Effect.fail(new Energy.ProviderRejected({ reason: `${what}: no provider can fill ${request.energy} energy for 1h now` }))
            : Effect.succeed({ energy: request.energy, cost: reply.best.cost_trx, activationCost: 0n, durationSeconds: Number(reply.best.duration_sec) })
        )
      )
    }

    const submit = (orderId: string, request: Energy.RentalRequest): Effect.Effect<Energy.ProviderOrder, Energy.ProviderUnavailable | Energy.ProviderRejected> => {
      const what = `merx order ${orderId}`
      const body = {
        resource_type: "ENERGY",
        order_type: "MARKET",
        amount: Number(request.energy),
        duration_sec: durationSeconds,
        target_address: request.receiver,
        ...Option.match(config.maxPricePerEnergy, { onNone: () => ({}), onSome: (price) => ({ max_price_sun: Number(price) }) })
      }
      const http = HttpClientRequest.post(`${config.baseUrl}/orders`).pipe(
        authorised,
        HttpClientRequest.setHeader("Idempotency-Key", orderId),
        HttpClientRequest.bodyUnsafeJson(body)
      )
      return send(client, http, config.requestTimeout, what).pipe(
        Effect.flatMap(judge(what, OrderReply)),
        Effect.map((reply) => orderOf(reply, orderId)),
        Effect.tap((order) => sent.remember(orderId, () => ({ request, merxId: Option.some(order.providerOrderId) })))
      )
    }

    const order: Energy.EnergyProviderService["order"] = (orderId, request) => {
      if (orderId.length === 0) return Effect.fail(new Energy.ProviderRejected({ reason: "merx: an order needs our order number as its Idempotency-Key" }))
      if (request.activate) return Effect.fail(new Energy.ProviderRejected({ reason: "merx: cannot activate a wallet" }))
      if (request.energy < merxMinimumEnergy) return Effect.fail(tooSmall(request.energy))
      return Effect.suspend(() => {
        const merxId = Option.flatMap(sent.get(orderId), (s) => s.merxId)
        return Effect.zipRight(sent.remember(orderId, () => ({ request, merxId })), submit(orderId, request))
      })
    }

    /** By Merx's id: we hold it, so a refusal to show the order is no proof that nothing was ordered. */
    const readById = (orderId: string, merxId: string): Effect.Effect<Energy.ProviderOrder, Energy.ProviderUnavailable> => {
      const what = `merx order detail ${merxId}`
      return send(client, authorised(HttpClientRequest.get(`${config.baseUrl}/orders/${encodeURIComponent(merxId)}`)), config.requestTimeout, what).pipe(
        Effect.flatMap(judge(what, OrderReply)),
        Effect.map((reply) => orderOf(reply, orderId)),
        Effect.catchTag("ProviderRejected", (error) => Effect.fail(new Energy.ProviderUnavailable({ reason: error.reason })))
      )
    }

    const find: Energy.EnergyProviderService["find"] = (orderId) =>
      Effect.suspend(() =>
        Option.match(sent.get(orderId), {
          onNone: () =>
            Effect.fail(
              new Energy.ProviderUnavailable({
                reason: `merx: order ${orderId} was not sent by this process and Merx has no lookup by Idempotency-Key; order again with the same number within 24 hours to get the original order`
              })
            ),
          onSome: ({ merxId, request }) =>
            Option.match(merxId, {
              // The same key again: the original order, or a refusal that proves there is none.
              onNone: () => submit(orderId, request).pipe(Effect.map(Option.some), Effect.catchTag("ProviderRejected", () => Effect.succeed(Option.none()))),
              onSome: (id) => Effect.map(readById(orderId, id), Option.some)
            })
        }))

    return { name: "merx", supportsActivation: false, minimumEnergy: merxMinimumEnergy, quote, order, find }
  })

export const layer = (config: MerxConfig): Layer.Layer<Energy.EnergyProvider, never, HttpClient.HttpClient> => Layer.effect(Energy.EnergyProvider, make(config))
