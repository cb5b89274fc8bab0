import { Energy, Kernel } from "@collector/core"

import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Clock, type Duration, Effect, Either, Layer, Option, type Redacted, Schema } from "effect"
import { signedHeaders } from "./CatFeeSignature.js"
import { Envelope, OrderData, orderOf, refusalText } from "./CatFeeWire.js"
import { type ProviderResponse, send } from "./ProviderHttp.js"
import { SentOrders } from "./SentOrders.js"

/**
 * The EnergyProvider port over CatFee's REST API (docs.catfee.io; see docs/energy-providers.md):
 * `POST /v1/order?quantity&receiver&duration=1h&client_order_id&activate` buys a one-hour rental
 * under our own order number (`client_order_id`, at most 64 characters: the same number again
 * returns the original order and charges nothing), `GET /v1/order/{id}` reads an order by
 * CatFee's id. Every request is signed (CatFeeSignature).
 *
 * Verifying an order number. CatFee documents no lookup by `client_order_id`; its documented
 * recovery from a lost answer is to submit the same request again with the same
 * `client_order_id`. So `find` reads by CatFee's id when an answer gave it, and otherwise submits
 * the remembered request again: CatFee answers the original order if it exists, or takes it now
 * (the retry the sweeper would make under the same number anyway; never a second order). A
 * number this process never sent (a restart in between, or one older than the last 50,000)
 * cannot be verified without the request: `find` stays ProviderUnavailable, and calling `order`
 * again with the same number and request is the way out.
 *
 * Quotes. The estimate endpoint's reply is not described in the documentation we could read, so
 * `quote` prices from the configured SUN per energy and activation; `paidCost` and
 * `activationCost` of the order are what CatFee says it charged (`pay_amount_sun`,
 * `activate_amount_sun`).
 */

export interface CatFeeConfig {
  readonly network: Kernel.Network
  /** https://api.catfee.io (main) or https://nile.catfee.io (nile); no trailing slash. */
  readonly baseUrl: string
  readonly apiKey: Redacted.Redacted
  readonly apiSecret: Redacted.Redacted
  readonly requestTimeout: Duration.Duration
  /** SUN per energy used for quotes. */
  readonly quotePricePerEnergy: bigint
  /** SUN quoted for an activation. */
  readonly quoteActivationCost: bigint
}

export const catFeeBaseUrls: Record<Kernel.Network, string> = { main: "https://api.catfee.io", nile: "https://nile.catfee.io" }

/** "delegation energy quantity, must >= 65000". */
export const catFeeMinimumEnergy = 65_000n

/** The only duration the order endpoint allows: 1h. */
const durationSeconds = 3600

interface Sent {
  readonly request: Energy.RentalRequest
  readonly providerOrderId: Option.Option<string>
}

const decode = <A, I>(schema: Schema.Schema<A, I>, value: unknown) => Either.mapLeft(Schema.decodeUnknownEither(schema)(value), (e) => e.message)

const parse = (text: string): Either.Either<unknown, string> =>
  Either.try({ try: () => Kernel.LosslessJson.parse(text, "allAsText"), catch: (error) => `not JSON: ${String(error)}` })

export const orderPath = (orderId: string, request: Energy.RentalRequest): string =>
  `/v1/order?${new URLSearchParams([
    ["quantity", request.energy.toString()],
    ["receiver", request.receiver],
    ["duration", "1h"],
    ["client_order_id", orderId],
    ["activate", String(request.activate)]
  ]).toString()}`

export const make = (config: CatFeeConfig): Effect.Effect<Energy.EnergyProviderService, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    // In insertion order, so the oldest is dropped first once full.
    const sent = new SentOrders<Sent>()

    const call = (method: "GET" | "POST", requestPath: string, what: string) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        send(
          client,
          HttpClientRequest.make(method)(config.baseUrl + requestPath).pipe(
            HttpClientRequest.setHeaders(signedHeaders(config.apiKey, config.apiSecret, new Date(now), method, requestPath))
          ),
          config.requestTimeout,
          what
        ))

    /** An order from a reply: code 0 with the order, a refusal, or an unknown outcome. */
    const judge = (what: string, orderId: string) => (response: ProviderResponse): Effect.Effect<Energy.ProviderOrder, Energy.ProviderUnavailable | Energy.ProviderRejected> =>
      Effect.gen(function*() {
        const unreadable = (error: string) => new Energy.ProviderUnavailable({ reason: `${what}: unreadable answer (${error})` })
        const envelope = Either.flatMap(parse(response.text), (json) => decode(Envelope, json))
        if (response.status === 401 || response.status === 403) {
          return yield* new Energy.ProviderRejected({ reason: `${what}: HTTP ${response.status}, CatFee refused the credentials (key, secret, clock within 5 s, IP whitelist)` })
        }
        if (response.status < 200 || response.status >= 300) {
          const text = Either.match(envelope, { onLeft: () => response.text.slice(0, 200), onRight: refusalText })
          return yield* new Energy.ProviderRejected({ reason: `${what}: HTTP ${response.status} ${text}`.trim() })
        }
        if (Either.isLeft(envelope)) return yield* unreadable(envelope.left)
        if (envelope.right.code !== "0") return yield* new Energy.ProviderRejected({ reason: `${what}: ${refusalText(envelope.right)}` })
        const data = decode(OrderData, envelope.right.data)
        if (Either.isLeft(data)) return yield* unreadable(data.left)
        return orderOf(data.right, orderId, yield* Clock.currentTimeMillis)
      })

    const submit = (orderId: string, request: Energy.RentalRequest): Effect.Effect<Energy.ProviderOrder, Energy.ProviderUnavailable | Energy.ProviderRejected> =>
      Effect.tap(
        Effect.flatMap(call("POST", orderPath(orderId, request), `catfee order ${orderId}`), judge(`catfee order ${orderId}`, orderId)),
        (order) => sent.remember(orderId, () => ({ request, providerOrderId: Option.some(order.providerOrderId) }))
      )

    const order: Energy.EnergyProviderService["order"] = (orderId, request) => {
      if (orderId.length === 0 || orderId.length > 64) {
        return Effect.fail(new Energy.ProviderRejected({ reason: `catfee: client_order_id must be 1 to 64 characters, got ${orderId.length}` }))
      }
      if (request.energy < catFeeMinimumEnergy) {
        return Effect.fail(new Energy.ProviderRejected({ reason: `catfee: at least ${catFeeMinimumEnergy} energy per order, asked ${request.energy}` }))
      }
      return Effect.zipRight(
        sent.remember(orderId, (current) => ({ request, providerOrderId: Option.flatMap(current, (s) => s.providerOrderId) })),
        submit(orderId, request)
      )
    }

    const notSent = (orderId: string) =>
      new Energy.ProviderUnavailable({
        reason: `catfee: order ${orderId} was not sent by this process (or too long ago) and CatFee has no lookup by client_order_id; order again with the same number and request to get the original order`
      })

    /** By CatFee's own id: we hold it, so a refusal to show the order is no proof that nothing was ordered. */
    const readById = (orderId: string, providerOrderId: string): Effect.Effect<Energy.ProviderOrder, Energy.ProviderUnavailable> => {
      const what = `catfee order detail ${providerOrderId}`
      return Effect.flatMap(call("GET", `/v1/order/${encodeURIComponent(providerOrderId)}`, what), judge(what, orderId)).pipe(
        Effect.catchTag("ProviderRejected", (error) => Effect.fail(new Energy.ProviderUnavailable({ reason: error.reason })))
      )
    }

    /** Resubmitting under the same client_order_id: the original order, or a refusal that proves there is none. */
    const resubmit = (orderId: string, request: Energy.RentalRequest): Effect.Effect<Option.Option<Energy.ProviderOrder>, Energy.ProviderUnavailable> =>
      submit(orderId, request).pipe(
        Effect.map(Option.some),
        Effect.catchTag("ProviderRejected", () => Effect.succeed(Option.none()))
      )

    const find: Energy.EnergyProviderService["find"] = (orderId) =>
      Effect.suspend(() =>
        Option.match(sent.get(orderId), {
          onNone: () => Effect.fail(notSent(orderId)),
          onSome: ({ providerOrderId, request }) =>
            Option.match(providerOrderId, {
              onNone: () => resubmit(orderId, request),
              onSome: (id) => Effect.map(readById(orderId, id), Option.some)
            })
        }))

    return {
      name: "catfee",
      supportsActivation: true,
      minimumEnergy: catFeeMinimumEnergy,
      quote: (request) =>
        request.energy < catFeeMinimumEnergy
          ? Effect.fail(new Energy.ProviderRejected({ reason: `catfee: at least ${catFeeMinimumEnergy} energy per order, asked ${request.energy}` }))
          : Effect.succeed({
            energy: request.energy,
            cost: request.energy * config.quotePricePerEnergy,
            activationCost: request.activate ? config.quoteActivationCost : 0n,
            durationSeconds
          }),
      order,
      find
    }
  })

export const layer = (config: CatFeeConfig): Layer.Layer<Energy.EnergyProvider, never, HttpClient.HttpClient> => Layer.effect(Energy.EnergyProvider, make(config))
