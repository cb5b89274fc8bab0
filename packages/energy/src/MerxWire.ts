import type { Energy } from "@collector/core"
import { Schema } from "effect"
import { DigitsBigInt, TrxAsSun } from "./Sun.js"

/**
 * Merx's replies (https://merx.exchange/docs/api: "Preview Order", "Create Order", "Get Order"),
 * read with every number as text (core's LosslessJson, "allAsText") so SUN amounts stay exact. Errors come as
 * `{"error": {"code", "message"}}` with the HTTP status saying the kind.
 *
 * States: PENDING and EXECUTING are pending; FILLED is delivered (the delegation made, each
 * fill with its on-chain transaction); FAILED is failed. The sweeper checks the chain in any case.
 */

const Text = Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null })
const Sun = Schema.optionalWith(Schema.NullOr(DigitsBigInt), { default: () => null })

export const ErrorReply = Schema.Struct({ error: Schema.Struct({ code: Schema.String, message: Text }) })

export const PreviewOption = Schema.Struct({
  provider: Schema.String,
  price_sun: Schema.String,
  cost_trx: TrxAsSun,
  duration_sec: DigitsBigInt
})

export const PreviewReply = Schema.Struct({
  best: Schema.NullOr(PreviewOption),
  no_providers: Schema.optionalWith(Schema.Boolean, { default: () => false })
})

export const Fill = Schema.Struct({ provider: Text, amount: DigitsBigInt, status: Text })

export const OrderReply = Schema.Struct({
  id: Schema.String,
  status: Schema.String,
  amount: DigitsBigInt,
  duration_sec: DigitsBigInt,
  target_address: Text,
  total_cost_sun: Sun,
  total_fee_sun: Sun,
  fills: Schema.optionalWith(Schema.Array(Fill), { default: () => [] }),
  filled_at: Text
})

export type OrderReply = typeof OrderReply.Type

const stateOf = (status: string): Energy.ProviderOrderState => {
  switch (status) {
    case "FILLED":
      return "delivered"
    case "FAILED":
      return "failed"
    default:
      return "pending"
  }
}

export const orderOf = (reply: OrderReply, orderId: string): Energy.ProviderOrder => {
  const state = stateOf(reply.status)
  const filledAt = reply.filled_at === null ? null : new Date(reply.filled_at)
  const filled = filledAt !== null && !Number.isNaN(filledAt.getTime()) ? filledAt : null
  return {
    orderId,
    providerOrderId: reply.id,
    state,
    deliveredEnergy: state === "delivered" ? reply.fills.reduce((sum, fill) => sum + fill.amount, 0n) : 0n,
    paidCost: (reply.total_cost_sun ?? 0n) + (reply.total_fee_sun ?? 0n),
    activationCost: 0n,
    expiresAt: filled === null ? null : new Date(filled.getTime() + Number(reply.duration_sec) * 1000),
    reason: state === "failed" ? `Merx order ${reply.id} FAILED` : ""
  }
}
