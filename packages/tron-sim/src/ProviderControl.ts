import { Effect, Either, Option } from "effect"
import type { Armed, ProviderFaults } from "./ProviderBook.js"
import type { ControlReply } from "./ControlApi.js"
import { boundedField, integerField, optionalText } from "./ProviderFields.js"
import { orderJson } from "./ProviderOrderView.js"
import { type Body, parseBody, stringField } from "./RequestBody.js"
import type { Fault, SimProvider } from "./SimEnergyProvider.js"
import { SimControlError } from "./SimErrors.js"

/**
 * Faults of the simulated energy provider under `/sim/provider/*` (POST JSON, like the rest of
 * the control API). Each fault applies to the next `count` order calls (default 1):
 *
 * | route | body | effect |
 * |---|---|---|
 * | `slow` | `blocks, count?` | orders are delivered only after `blocks` more blocks |
 * | `under-deliver` | `percent, count?` | only `percent` (1-99) of the ordered energy is delegated |
 * | `fail` | `reason?, count?` | orders are accepted, then fail without a delegation |
 * | `unknown` | `count?, mode?, ms?` | the call is carried out but its answer is lost: `504` (default), `close` the connection, or `hold` it `ms` (60000) then 504 |
 * | `reject` | `reason?, count?` | orders are refused (HTTP 400), nothing is ordered |
 * | `price` | `sun` | SUN per energy of later quotes and orders |
 * | `reset` | | disarms every fault |
 * | `orders` | | every order and the armed faults |
 */

const invalid = (reason: string) => new SimControlError({ reason })

const count = (body: Body) => boundedField(body, "count", 1, 1_000_000, 1)

const armWith = (provider: SimProvider, body: Body, fault: Effect.Effect<Fault, SimControlError>) =>
  Effect.as(Effect.flatMap(Effect.all([fault, count(body)]), ([f, n]) => provider.arm(f, n)), { ok: true })

const lostMode = (body: Body): Effect.Effect<"504" | "close" | "hold", SimControlError> => {
  const mode = stringField(body, "mode") || "504"
  return mode === "504" || mode === "close" || mode === "hold" ? Effect.succeed(mode) : Effect.fail(invalid(`mode must be 504, close or hold, got ${mode}`))
}

const armedJson = <A>(armed: Option.Option<Armed<A>>) =>
  Option.match(armed, { onNone: () => null, onSome: ({ remaining, value }) => ({ value, remaining }) })

const faultsJson = (faults: ProviderFaults) => ({
  slow: armedJson(faults.slow),
  under_deliver: armedJson(faults.underDeliver),
  fail: armedJson(faults.fail),
  reject: armedJson(faults.reject),
  unknown: armedJson(faults.unknown)
})

type Handler = (provider: SimProvider, body: Body) => Effect.Effect<unknown, SimControlError>

const routes: Readonly<Record<string, Handler>> = {
  slow: (provider, body) => armWith(provider, body, Effect.map(boundedField(body, "blocks", 1, 100_000), (blocks) => ({ kind: "slow", blocks }))),
  "under-deliver": (provider, body) =>
    armWith(provider, body, Effect.map(boundedField(body, "percent", 1, 99), (percent) => ({ kind: "under-deliver", percent }))),
  fail: (provider, body) => armWith(provider, body, Effect.succeed({ kind: "fail", reason: optionalText(body, "reason", "the provider could not delegate") })),
  reject: (provider, body) => armWith(provider, body, Effect.succeed({ kind: "reject", reason: optionalText(body, "reason", "no energy available") })),
  unknown: (provider, body) =>
    armWith(
      provider,
      body,
      Effect.map(Effect.all([lostMode(body), boundedField(body, "ms", 0, 3_600_000, 60_000)]), ([mode, holdMs]) => ({ kind: "unknown", lost: { mode, holdMs } }))
    ),
  price: (provider, body) => Effect.as(Effect.flatMap(integerField(body, "sun"), provider.setPrice), { ok: true }),
  reset: (provider) => Effect.as(provider.reset, { ok: true }),
  orders: (provider) =>
    Effect.map(Effect.all([provider.orders, provider.faults, provider.settings]), ([orders, faults, settings]) => ({
      ok: true,
      price_sun: settings.pricePerEnergy.toString(),
      orders: orders.map(orderJson),
      faults: faultsJson(faults)
    }))
}

/** The reply to `/sim/provider/<name>`, or None for any other path. */
export const handleProviderControl = (provider: SimProvider, path: string, bodyText: string): Effect.Effect<Option.Option<ControlReply>> => {
  const name = path.replace(/^\/sim\/provider\//, "")
  const route = path.startsWith("/sim/provider/") && Object.hasOwn(routes, name) ? routes[name] : undefined
  if (route === undefined) return Effect.succeed(Option.none())
  const body = parseBody(bodyText)
  if (Either.isLeft(body)) return Effect.succeed(Option.some({ status: 400, body: { error: "the body must be a JSON object" } }))
  return route(provider, body.right).pipe(
    Effect.map((reply): ControlReply => ({ status: 200, body: reply })),
    Effect.catchAll((error) => Effect.succeed<ControlReply>({ status: 400, body: { error: error.reason } })),
    Effect.map(Option.some)
  )
}
