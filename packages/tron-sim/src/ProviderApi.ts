import { Effect, Either, Option } from "effect"
import type { LostAnswer, ProviderRefused } from "./ProviderBook.js"
import { flagField, integerField, textField } from "./ProviderFields.js"
import { orderJson } from "./ProviderOrderView.js"
import { type Body, parseBody } from "./RequestBody.js"
import type { SimProvider } from "./SimEnergyProvider.js"
import type { SimControlError } from "./SimErrors.js"

/**
 * The simulated provider's own HTTP API, beside the node's on the same port (POST JSON):
 *
 * - `/provider/v1/quote {receiver, energy, activate}`: the price of a rental.
 * - `/provider/v1/order {order_no, receiver, energy, activate}`: takes an order under the
 *   client's number; the same number again answers the same order and orders nothing.
 * - `/provider/v1/order/query {order_no}`: `{found: true, order}` or `{found: false}`.
 *
 * Energy and SUN are digit strings in replies (JSON numbers or digit strings in requests).
 * Success is HTTP 200 `{ok: true, ...}`; a refusal (nothing ordered) is HTTP 400
 * `{ok: false, code, error}`. An order answer the `unknown` fault swallows is `Lost`.
 */

export type ProviderReply =
  | { readonly _tag: "Answer"; readonly status: number; readonly body: unknown }
  | { readonly _tag: "Lost"; readonly lost: LostAnswer }

const answer = (status: number, body: unknown): ProviderReply => ({ _tag: "Answer", status, body })

const refusal = (code: string, error: string) => answer(400, { ok: false, code, error })

type Handler = (provider: SimProvider, body: Body) => Effect.Effect<ProviderReply, ProviderRefused | SimControlError>

const rentalOf = (body: Body) =>
  Effect.all({ receiver: textField(body, "receiver"), energy: integerField(body, "energy"), activate: flagField(body, "activate") })

const routes: Readonly<Record<string, Handler>> = {
  "/provider/v1/quote": (provider, body) =>
    Effect.flatMap(Effect.flatMap(rentalOf(body), provider.quote), (quote) =>
      Effect.succeed(answer(200, {
        ok: true,
        receiver: quote.receiver,
        energy: quote.energy.toString(),
        price_sun: quote.pricePerEnergy.toString(),
        cost_sun: quote.cost.toString(),
        activation_cost_sun: quote.activationCost.toString(),
        total_sun: (quote.cost + quote.activationCost).toString(),
        duration_seconds: Math.floor(quote.durationMs / 1000)
      }))),
  "/provider/v1/order": (provider, body) =>
    Effect.gen(function*() {
      const orderNo = yield* textField(body, "order_no")
      const outcome = yield* provider.order({ orderNo, ...(yield* rentalOf(body)) })
      return Option.match(outcome.lost, {
        onNone: () => answer(200, { ok: true, order: orderJson(outcome.view) }),
        onSome: (lost): ProviderReply => ({ _tag: "Lost", lost })
      })
    }),
  "/provider/v1/order/query": (provider, body) =>
    Effect.flatMap(textField(body, "order_no"), (orderNo) =>
      Effect.map(provider.find(orderNo), Option.match({
        onNone: () => answer(200, { ok: true, found: false }),
        onSome: (view) => answer(200, { ok: true, found: true, order: orderJson(view) })
      })))
}

/** The reply to a `/provider/v1/*` path, or None for any other path. */
export const handleProvider = (provider: SimProvider, path: string, bodyText: string): Effect.Effect<Option.Option<ProviderReply>> => {
  const route = Object.hasOwn(routes, path) ? routes[path] : undefined
  if (route === undefined) return Effect.succeed(Option.none())
  const body = parseBody(bodyText)
  if (Either.isLeft(body)) return Effect.succeed(Option.some(refusal("INVALID_REQUEST", "the body must be a JSON object")))
  return route(provider, body.right).pipe(
    Effect.catchTags({
      ProviderRefused: (error) => Effect.succeed(refusal(error.code, error.reason)),
      SimControlError: (error) => Effect.succeed(refusal("INVALID_REQUEST", error.reason))
    }),
    Effect.map(Option.some)
  )
}
