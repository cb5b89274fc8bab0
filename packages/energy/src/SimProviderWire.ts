import type { Energy } from "@collector/core"
import { Schema } from "effect"
import { DigitsBigInt } from "./Sun.js"

/**
 * The replies of the simulated provider (`/provider/v1/*` on the simulated node), read with
 * every number as text (core's LosslessJson, "allAsText"): energy and SUN are digit strings, times ISO 8601 or null.
 */

export const QuoteReply = Schema.Struct({
  ok: Schema.Literal(true),
  energy: DigitsBigInt,
  cost_sun: DigitsBigInt,
  activation_cost_sun: DigitsBigInt,
  duration_seconds: Schema.NumberFromString
})

const OrderJson = Schema.Struct({
  order_no: Schema.String,
  provider_order_id: Schema.String,
  state: Schema.Literal("pending", "delivered", "failed", "expired"),
  delivered_energy: DigitsBigInt,
  cost_sun: DigitsBigInt,
  activation_cost_sun: DigitsBigInt,
  expires_at: Schema.NullOr(Schema.String),
  reason: Schema.String
})

export const OrderReply = Schema.Struct({ ok: Schema.Literal(true), order: OrderJson })

export const QueryReply = Schema.Union(
  Schema.Struct({ ok: Schema.Literal(true), found: Schema.Literal(false) }),
  Schema.Struct({ ok: Schema.Literal(true), found: Schema.Literal(true), order: OrderJson })
)

/** HTTP 400: a refusal, nothing ordered. */
export const Refusal = Schema.Struct({ ok: Schema.Literal(false), code: Schema.String, error: Schema.String })

export const quoteOf = (reply: typeof QuoteReply.Type): Energy.RentalQuote => ({
  energy: reply.energy,
  cost: reply.cost_sun,
  activationCost: reply.activation_cost_sun,
  durationSeconds: reply.duration_seconds
})

export const orderOf = (order: typeof OrderJson.Type): Energy.ProviderOrder => ({
  orderId: order.order_no,
  providerOrderId: order.provider_order_id,
  state: order.state,
  deliveredEnergy: order.delivered_energy,
  paidCost: order.cost_sun,
  activationCost: order.activation_cost_sun,
  expiresAt: order.expires_at === null ? null : new Date(order.expires_at),
  reason: order.reason
})
